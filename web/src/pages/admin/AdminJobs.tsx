import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { DataTable } from "../../components/DataTable";
import { JOB_STATUSES as STATUSES, type JobStatus as Status } from "../../job-statuses";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { ALL_JOB_COLUMNS } from "./jobColumns";

/** Research jobs of every user, newest first; filtered by the owner's exact email and by status. */
export function AdminJobs() {
  const [draft, setDraft] = useState({ email: "", status: "" });
  const [filters, setFilters] = useState(draft);
  const page = usePage();
  const jobs = useQuery({
    queryKey: ["admin", "jobs", "list", filters, page.offset],
    queryFn: () =>
      dataOf(
        api.GET("/api/admin/jobs", {
          params: {
            query: {
              ...page.query,
              ...(filters.email ? { user_email: filters.email } : {}),
              ...(filters.status ? { status: filters.status as Status } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters({ email: draft.email.trim(), status: draft.status });
    page.reset();
  }
  const shown = jobs.data ? pageOf(jobs.data) : null;
  const filtered = filters.email !== "" || filters.status !== "";
  return (
    <section aria-labelledby="admin-jobs-title">
      <h1 id="admin-jobs-title">Jobs</h1>
      <form className="inline" aria-label="Filter jobs" onSubmit={apply}>
        <label>
          User email
          <input type="email" value={draft.email} placeholder="exact address" onChange={(event) => setDraft({ ...draft, email: event.target.value })} />
        </label>
        <label>
          Status
          <select value={draft.status} onChange={(event) => setDraft({ ...draft, status: event.target.value })}>
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {jobs.isPending && <Loading what="jobs" />}
      <ErrorNotice error={jobs.error} />
      <DataTable
        columns={ALL_JOB_COLUMNS}
        rows={shown?.rows}
        rowKey={(job) => job.id}
        caption="Research jobs, newest first"
        empty={<p className="card">{filtered ? "No job matches these filters." : "No research jobs yet."}</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="jobs" />}
    </section>
  );
}
