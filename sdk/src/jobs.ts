import type { RequestOptions } from "./http.js";
import type { PagePromise } from "./pagination.js";
import type { JobListQuery, ResearchCalls } from "./research-resource.js";
import type { ResearchLogRow } from "./types.js";

/** @deprecated `client.jobs.list()` is `client.research.list()`, kept for this release. */
export class Jobs {
  constructor(private readonly research: Pick<ResearchCalls, "list">) {}

  /** @deprecated Use `client.research.list()`. */
  list(query: JobListQuery = {}, options: RequestOptions = {}): PagePromise<ResearchLogRow> {
    return this.research.list(query, options);
  }
}
