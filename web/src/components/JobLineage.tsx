import { Link } from "react-router-dom";
import type { Schemas } from "../api/client";

type Lineage = Pick<Schemas["LogRow"], "previous_job_id" | "plan_id" | "monitor_id">;

/**
 * Where a job came from, as small tags: "follow-up" (to the job it follows up), "plan" (it ran a
 * reviewed plan), "monitor" (a monitor's run; to the Monitors page). Nothing for a job submitted
 * plainly.
 */
export function JobLineage({ job }: { job: Lineage }) {
  if (!job.previous_job_id && !job.plan_id && !job.monitor_id) return <span className="muted">–</span>;
  return (
    <span className="lineage-tags">
      {job.previous_job_id && (
        <Link className="lineage" to={`/jobs/${job.previous_job_id}`} title="A follow-up: open the job it follows up">
          follow-up
        </Link>
      )}
      {job.plan_id && (
        <span className="lineage" title={`Ran the reviewed plan ${job.plan_id}`}>
          plan
        </span>
      )}
      {job.monitor_id && (
        <Link className="lineage" to="/monitors" title="A monitor's run: open the Monitors page">
          monitor
        </Link>
      )}
    </span>
  );
}
