import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, duration, usdFromMicros, when } from "../../format";
import { JobStatus } from "../../components/JobStatus";
import { Pager, pageOf, usePage } from "../../components/Pager";

/** A user's research jobs, newest first, each linking to the admin job detail (where refunds are). */
export function UserJobs({ userId }: { userId: string }) {
  const page = usePage();
  const jobs = useQuery({
    queryKey: ["admin", "users", userId, "jobs", page.offset],
    queryFn: () => dataOf(api.GET("/api/admin/users/{id}/jobs", { params: { path: { id: userId }, query: page.query } })),
    placeholderData: keepPreviousData,
  });
  const shown = jobs.data ? pageOf(jobs.data) : null;
  return (
    <section aria-labelledby="user-jobs-title">
      <h2 id="user-jobs-title">Jobs</h2>
      {jobs.isPending && <Loading what="the jobs" />}
      <ErrorNotice error={jobs.error} />
      {shown && shown.rows.length === 0 && <p className="card muted">No research jobs yet.</p>}
      {shown && shown.rows.length > 0 && (
        <table aria-labelledby="user-jobs-title">
          <thead>
            <tr>
              <th scope="col">Started</th>
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
      {shown && <Pager page={page} hasNext={shown.hasNext} what="the user's jobs" />}
    </section>
  );
}
