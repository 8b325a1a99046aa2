import type { RequestOptions } from "./http.js";
import type { PagePromise, Paging } from "./pagination.js";
import type { ResearchCalls } from "./research-resource.js";
import type { JobStatus, ResearchLogRow } from "./types.js";

export interface JobListQuery extends Paging {
  /** Only jobs in this status. */
  status?: JobStatus;
}

/** @deprecated `client.jobs.list()` is `client.research.list()`, kept for this release. */
export class Jobs {
  constructor(private readonly research: Pick<ResearchCalls, "list">) {}

  /** @deprecated Use `client.research.list()`. */
  list(query: JobListQuery = {}, options: RequestOptions = {}): PagePromise<ResearchLogRow> {
    return this.research.list(query, options);
  }
}
