import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Breakable } from "./Breakable";
import { credits, duration, usdFromMicros, when } from "../../format";
import { JobStatus } from "../../components/JobStatus";
import { JOB_STATUSES as STATUSES, type JobStatus as Status } from "../../job-statuses";
import { Pager, pageOf, usePage } from "../../components/Pager";

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
      {shown && shown.rows.length === 0 && <p className="card">{filtered ? "No job matches these filters." : "No research jobs yet."}</p>}
      {shown && shown.rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Research jobs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">User</th>
              <th scope="col">Question</th>
              <th scope="col">Status</th>
              <th scope="col" className="number">
                Credits
              </th>
              <th scope="col" className="number">
                Cost
              </th>
              <th scope="col" className="number">
                Took
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.rows.map((job) => (
              <tr key={job.id}>
                <td data-label="Started">{when(job.created_at)}</td>
                <td data-label="User" className="wrap">
                  <Link to={`/admin/users/${job.user_id}`}>
                    <Breakable text={job.user_email} />
                  </Link>
                </td>
                <td data-label="Question" className="wrap">
                  <Link to={`/admin/jobs/${job.id}`}>{job.question}</Link>
                </td>
                <td data-label="Status">
                  <JobStatus status={job.status} />
                </td>
                <td data-label="Credits" className="number">
                  {credits(job.credits_charged)}
                </td>
                <td data-label="Cost" className="number">
                  {usdFromMicros(job.cost_usd_micros)}
                </td>
                <td data-label="Took" className="number">
                  {duration(job.latency_ms)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && <Pager page={page} hasNext={shown.hasNext} what="jobs" />}
    </section>
  );
}
