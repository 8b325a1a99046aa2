/** A job's status as a tag: failed ones stand out. */
export function JobStatus({ status }: { status: string }) {
  return <span className={`tag ${status === "failed" ? "bad" : status === "succeeded" ? "good" : ""}`}>{status}</span>;
}
