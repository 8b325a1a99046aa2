import type { ApiPromise } from "./api-promise.js";
import type { Http, RequestOptions } from "./http.js";
import type { PagePromise, Paging } from "./pagination.js";
import type { Monitor, MonitorCreate, MonitorRun, MonitorUpdate } from "./types.js";

/**
 * Monitors: a question researched again on a schedule (`{ every: "6h" }` or a cron expression at
 * most hourly, UTC), each run a research job charged as one, with what changed since the run
 * before (sources added and gone, the short answer, claims added and withdrawn). A run the balance
 * does not cover pauses the monitor (`paused_reason`), charging nothing.
 */
export class Monitors {
  constructor(private readonly http: Http) {}

  create(input: MonitorCreate, options: RequestOptions = {}): ApiPromise<Monitor> {
    return this.http.request(options, (init) => this.http.api.POST("/v1/monitors", { body: input, ...init }));
  }

  /** Your monitors, newest first: awaited, one page; with `for await`, all of them. */
  list(paging: Paging = {}, options: RequestOptions = {}): PagePromise<Monitor> {
    return this.http.page(options, (next, init) => this.http.api.GET("/v1/monitors", { params: { query: { ...paging, ...next } }, ...init }));
  }

  get(id: string, options: RequestOptions = {}): ApiPromise<Monitor> {
    return this.http.request(options, (init) => this.http.api.GET("/v1/monitors/{id}", { params: { path: { id } }, ...init }));
  }

  /** Pause (`{ status: "paused" }`), resume (`{ status: "active" }`), or change the schedule, webhook_url or max_credits_per_run. */
  update(id: string, changes: MonitorUpdate, options: RequestOptions = {}): ApiPromise<Monitor> {
    return this.http.request(options, (init) => this.http.api.PATCH("/v1/monitors/{id}", { params: { path: { id } }, body: changes, ...init }));
  }

  pause(id: string, options: RequestOptions = {}): ApiPromise<Monitor> {
    return this.update(id, { status: "paused" }, options);
  }

  resume(id: string, options: RequestOptions = {}): ApiPromise<Monitor> {
    return this.update(id, { status: "active" }, options);
  }

  /** Deletes the monitor and the record of its runs (their jobs stay). */
  delete(id: string, options: RequestOptions = {}): ApiPromise<{ deleted: true }> {
    return this.http.request(options, (init) => this.http.api.DELETE("/v1/monitors/{id}", { params: { path: { id } }, ...init }));
  }

  /** The monitor's runs, newest first, each with its `diff`: awaited, one page; with `for await`, all of them. */
  runs(id: string, paging: Paging = {}, options: RequestOptions = {}): PagePromise<MonitorRun> {
    return this.http.page(options, (next, init) =>
      this.http.api.GET("/v1/monitors/{id}/runs", { params: { path: { id }, query: { ...paging, ...next } }, ...init }),
    );
  }

  /** Starts a run now (a research job charged as one; 402 and the monitor paused when the balance does not cover it). */
  run(id: string, options: RequestOptions = {}): ApiPromise<MonitorRun> {
    return this.http.request(options, (init) => this.http.api.POST("/v1/monitors/{id}/run", { params: { path: { id } }, ...init }));
  }
}
