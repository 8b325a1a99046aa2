import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { count, credits, duration, usdFromMicros, when } from "../../format";
import { JobStatus } from "../../components/JobStatus";
import { isTerminal } from "../../job-statuses";
import { RefundForm } from "./RefundForm";
import { WriteReport } from "./WriteReport";

/** One job of any user: its figures, what was kept of a model's writing, its raw request and response, and a refund once it is finished. */
export function AdminJobDetail() {
  const { id = "" } = useParams();
  const job = useQuery({ queryKey: ["admin", "jobs", id], queryFn: () => dataOf(api.GET("/api/admin/jobs/{id}", { params: { path: { id } } })) });
  return (
    <section aria-labelledby="admin-job-title">
      <p>
        <Link to="/admin/jobs">← All jobs</Link>
      </p>
      <h1 id="admin-job-title">Job</h1>
      {job.isPending && <Loading what="the job" />}
      <ErrorNotice error={job.error} />
      {job.data && <JobBody job={job.data} />}
    </section>
  );
}

function JobBody({ job }: { job: Schemas["AdminJobDetail"] }) {
  return (
    <>
      <p className="question wrap">{job.question}</p>
      <dl className="facts" aria-label="Job">
        <dt>Job id</dt>
        <dd>
          <code>{job.id}</code>
        </dd>
        <dt>User</dt>
        <dd className="wrap">
          <Link to={`/admin/users/${job.user_id}`}>{job.user_email}</Link>
        </dd>
        <dt>Status</dt>
        <dd>
          <JobStatus status={job.status} />
        </dd>
        <dt>Started</dt>
        <dd>{when(job.created_at)}</dd>
        <dt>Finished</dt>
        <dd>{when(job.completed_at)}</dd>
        <dt>Took</dt>
        <dd>{duration(job.latency_ms)}</dd>
        <dt>Credits reserved</dt>
        <dd>{credits(job.credits_reserved)}</dd>
        <dt>Credits charged</dt>
        <dd>{credits(job.credits_charged)}</dd>
        <dt>Upstream cost</dt>
        <dd>{usdFromMicros(job.cost_usd_micros)}</dd>
        <dt>Sources</dt>
        <dd>{job.source_count == null ? "—" : count(job.source_count)}</dd>
        <dt>Waves</dt>
        <dd>{job.wave_count == null ? "—" : count(job.wave_count)}</dd>
      </dl>
      {job.error && (
        <div className="error-notice" role="note" aria-label="Job error">
          <p className="wrap">{job.error}</p>
        </div>
      )}
      {isTerminal(job.status) ? (
        job.credits_charged > 0 ? (
          <RefundForm jobId={job.id} charged={job.credits_charged} email={job.user_email} />
        ) : (
          <p className="card muted">This job charged no credits, so there is nothing to refund.</p>
        )
      ) : (
        <p className="card muted">A refund is possible once the job has finished.</p>
      )}
      {job.status === "succeeded" && <WriteReport report={job.write_report} />}
      <Json title="Request" value={job.request} />
      <Json title="Response" value={job.response} empty="No response yet (the job has not finished, or it failed)." />
    </>
  );
}

/** Raw JSON, folded away: responses can be long. */
function Json({ title, value, empty }: { title: string; value: unknown; empty?: string }) {
  return (
    <details className="card json">
      <summary>{title}</summary>
      {value == null ? <p className="muted">{empty}</p> : <pre>{JSON.stringify(value, null, 2)}</pre>}
    </details>
  );
}
