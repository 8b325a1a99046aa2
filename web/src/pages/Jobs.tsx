import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";
import { type Column, DataTable } from "../components/DataTable";
import { JOB_STATUSES as STATUSES, type JobStatus as Status } from "../job-statuses";
import { Loading } from "../components/Loading";
import { Pager } from "../components/Pager";
import { JOB_COLUMN, LOGGED_JOB_COLUMN } from "./jobColumns";

const PAGE = 20;

const COLUMNS: Column<Schemas["LogRow"]>[] = [
  JOB_COLUMN.question,
  LOGGED_JOB_COLUMN.from,
  JOB_COLUMN.status,
  LOGGED_JOB_COLUMN.mode,
  JOB_COLUMN.credits,
  LOGGED_JOB_COLUMN.cost,
  JOB_COLUMN.latency,
  LOGGED_JOB_COLUMN.sources,
  JOB_COLUMN.started,
];

/**
 * Jobs and logs: every job of the account (API and playground), newest first, paged, filtered by
 * status, each with where it came from (a follow-up, a reviewed plan, a monitor's run); "anonymize"
 * redacts the questions (for a shared screen). Filters live in the URL.
 */
export function Jobs() {
  const [params, setParams] = useSearchParams();
  const status = (STATUSES as readonly string[]).includes(params.get("status") ?? "") ? (params.get("status") as Status) : undefined;
  const anonymize = params.get("anonymize") === "true";
  const page = Math.max(0, Number(params.get("page")) || 0);
  const logs = useQuery({
    queryKey: ["logs", status, anonymize, page],
    queryFn: () =>
      dataOf(api.GET("/api/logs", { params: { query: { status, anonymize: anonymize ? "true" : "false", limit: PAGE + 1, offset: page * PAGE } } })),
    placeholderData: keepPreviousData,
  });
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) value === null ? next.delete(key) : next.set(key, value);
    setParams(next);
  };
  const rows: Schemas["LogRow"][] = logs.data?.slice(0, PAGE) ?? [];
  const hasNext = (logs.data?.length ?? 0) > PAGE;

  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
      <form className="inline" aria-label="Filter jobs" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status ?? ""} onChange={(e) => set({ status: e.target.value || null, page: null })}>
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={anonymize} onChange={(e) => set({ anonymize: e.target.checked ? "true" : null })} />
          Anonymize questions
        </label>
      </form>
      {logs.isPending && <Loading what="your jobs" />}
      <ErrorNotice error={logs.error} />
      <DataTable
        columns={COLUMNS}
        rows={logs.data && rows}
        rowKey={(row) => row.id}
        caption="Your jobs"
        empty={
          <p className="card">
            {status ? `No ${status} jobs.` : "No jobs yet."} <Link to="/playground">Run one in the playground</Link> or call <code>POST /v1/research</code> with
            a key.
          </p>
        }
      />
      <Pager
        page={{
          size: PAGE,
          offset: page * PAGE,
          previous: () => set({ page: page > 1 ? String(page - 1) : null }),
          next: () => set({ page: String(page + 1) }),
        }}
        hasNext={hasNext}
        what="jobs"
      />
    </section>
  );
}
