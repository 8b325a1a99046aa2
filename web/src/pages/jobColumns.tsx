import { Link } from "react-router-dom";
import type { Schemas } from "../api/client";
import type { Column } from "../components/DataTable";
import { JobLineage } from "../components/JobLineage";
import { JobStatus } from "../components/JobStatus";
import { credits, duration, when, workCredits } from "../format";

type Job = Schemas["RecentJob"];
type LoggedJob = Schemas["LogRow"];

/**
 * The columns of the account's own job lists, each declared once: the overview's recent jobs show
 * a few of them, the jobs page all of them.
 */
export const JOB_COLUMN = {
  question: { header: "Question", kind: "title", cell: (job) => <Link to={`/jobs/${job.id}`}>{job.question}</Link> },
  status: { header: "Status", cell: (job) => <JobStatus status={job.status} /> },
  credits: { header: "Credits", cell: (job) => credits(job.credits_charged) },
  latency: { header: "Latency", cell: (job) => duration(job.latency_ms) },
  started: { header: "Started", cell: (job) => when(job.created_at) },
} satisfies Record<string, Column<Job>>;

/** Columns only the jobs page has (its rows carry more than the overview's). */
export const LOGGED_JOB_COLUMN = {
  mode: { header: "Mode", cell: (job) => job.mode ?? "–" },
  // The job's metered work, in credits beside the credits charged: a dollar figure there read as a second price.
  cost: { header: "Metered work (credits)", cell: (job) => workCredits(job.cost_usd_micros / 1_000_000) },
  sources: { header: "Sources", cell: (job) => job.source_count ?? "–" },
  // A follow-up, a reviewed plan's job, a monitor's run; nothing for a job submitted plainly.
  from: { header: "From", cell: (job) => <JobLineage job={job} /> },
} satisfies Record<string, Column<LoggedJob>>;
