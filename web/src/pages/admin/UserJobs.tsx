import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { DataTable } from "../../components/DataTable";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { USER_JOB_COLUMNS } from "./jobColumns";

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
      <DataTable
        columns={USER_JOB_COLUMNS}
        rows={shown?.rows}
        rowKey={(job) => job.id}
        labelledBy="user-jobs-title"
        empty={<p className="card muted">No research jobs yet.</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="the user's jobs" />}
    </section>
  );
}
