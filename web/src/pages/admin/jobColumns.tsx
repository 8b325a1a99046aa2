import { Link } from "react-router-dom";
import type { Schemas } from "../../api/client";
import type { Column } from "../../components/DataTable";
import { JobStatus } from "../../components/JobStatus";
import { credits, duration, usdFromMicros, when } from "../../format";
import { UserEmailLink } from "./UserEmailLink";

type Job = Schemas["AdminUserJobRow"];

const started: Column<Job> = { header: "Started", cell: (job) => when(job.created_at) };

/** Who ran the job: only the all-users list needs it (a user's page is already about them). */
const owner: Column<Schemas["AdminJobRow"]> = {
  header: "User",
  className: "wrap",
  cell: (job) => <UserEmailLink userId={job.user_id} email={job.user_email} />,
};

const theJob: Column<Job>[] = [
  { header: "Question", className: "wrap", cell: (job) => <Link to={`/admin/jobs/${job.id}`}>{job.question}</Link> },
  { header: "Status", cell: (job) => <JobStatus status={job.status} /> },
  { header: "Credits", kind: "number", cell: (job) => credits(job.credits_charged) },
  { header: "Cost", kind: "number", cell: (job) => usdFromMicros(job.cost_usd_micros) },
  { header: "Took", kind: "number", cell: (job) => duration(job.latency_ms) },
];

/** One user's jobs. */
export const USER_JOB_COLUMNS: Column<Job>[] = [started, ...theJob];

/** Every user's jobs: the same columns, with whose job it is. */
export const ALL_JOB_COLUMNS: Column<Schemas["AdminJobRow"]>[] = [started, owner, ...theJob];
