import type { Schemas } from "../../api/client";

/**
 * What the write stage kept of a hosted model's writing (issue 40): how many of its claims the
 * brief holds, and each one dropped with why, then its short answer. The operator's view only:
 * the customer's result never carries it.
 */
export function WriteReport({ report }: { report: Schemas["AdminWriteReport"] | null | undefined }) {
  if (!report) {
    return (
      <section className="card" aria-label="Model writing">
        <h2>Model writing</h2>
        <p className="muted">No model write report: written offline, or the job did not succeed.</p>
      </section>
    );
  }
  const kept = report.claims.filter((claim) => claim.kept);
  const revised = kept.filter((claim) => claim.revised).length;
  const dropped = report.claims.filter((claim) => !claim.kept);
  const { answer } = report;
  return (
    <section className="card" aria-label="Model writing">
      <h2>Model writing</h2>
      <p>
        {kept.length} of {report.claims.length} claims kept{revised > 0 ? ` (${revised} after revision)` : ""}, in {report.calls}{" "}
        {report.calls === 1 ? "call" : "calls"}.{" "}
        {answer === null
          ? "No short answer given."
          : answer.kept
            ? "Its short answer was kept."
            : `Its short answer was dropped: ${answer.reason ?? "no reason given"}.`}
      </p>
      {dropped.length > 0 && (
        <ul aria-label="Dropped claims">
          {dropped.map((claim, i) => (
            <li key={i} className="wrap">
              {claim.text} <span className="muted">({claim.reason ?? "no reason given"})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
