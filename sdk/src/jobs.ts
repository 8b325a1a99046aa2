import type { Http, RequestOptions } from "./http.js";
import type { PagePromise, Paging } from "./pagination.js";
import type { JobStatus, ResearchLogRow } from "./types.js";

export interface JobListQuery extends Paging {
  /** Only jobs in this status. */
  status?: JobStatus;
}

/** Your research jobs as a list (GET /v1/research): the one job call that pages. */
export class Jobs {
  constructor(private readonly http: Http) {}

  /**
   * Your API jobs, newest first: awaited, one page (`limit`, default 20); with `for await`, every
   * job, the next page fetched as the last one runs out.
   *
   *     for await (const job of client.jobs.list({ status: "failed" })) console.log(job.id, job.question);
   */
  list(query: JobListQuery = {}, options: RequestOptions = {}): PagePromise<ResearchLogRow> {
    return this.http.page(options, (next, init) => this.http.api.GET("/v1/research", { params: { query: { ...query, ...next } }, ...init }));
  }
}
