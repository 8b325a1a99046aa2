/**
 * The evaluation's admin session for reads during a run (the write stage's report of each job): an
 * access token lasts 15 minutes and a run lasts longer, so a 401 signs in again once and retries.
 */
import { signInAdmin } from "./account";
import { type ApiClient, HttpError } from "./client";
import type { EvalWriteReport } from "./write-summary";

export class AdminSession {
  constructor(
    private readonly api: ApiClient,
    private readonly email: string,
    private readonly password: string,
    private accessToken: string,
  ) {}

  async get<T>(path: string): Promise<T> {
    try {
      return (await this.api.get<T>(path, this.accessToken)).body;
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 401)) throw error;
      this.accessToken = (await signInAdmin(this.api, this.email, this.password)).accessToken;
      return (await this.api.get<T>(path, this.accessToken)).body;
    }
  }

  /** The job's write report (GET /api/admin/jobs/{id}); null when it has none (offline, or a service that does not report). */
  async writeReport(jobId: string): Promise<EvalWriteReport | null> {
    const detail = await this.get<{ write_report?: EvalWriteReport | null }>(`/api/admin/jobs/${encodeURIComponent(jobId)}`);
    return detail.write_report ?? null;
  }
}
