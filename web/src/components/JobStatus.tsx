/** A job's status as a coloured tag: succeeded, failed and running ones are told apart at a glance. */
export function JobStatus({ status }: { status: string }) {
  return <span className={`status status-${status}`}>{status}</span>;
}
