import type { Schemas } from "../api/client";

/**
 * What a cancel did, shown where Cancel was clicked. A cancel that arrives after the job ended
 * (a corpus job is done in well under a second) changed nothing: it says so, with what the job
 * was charged, instead of leaving a finished job on screen without a word (issue 38).
 */
export function CancelOutcome({ answer }: { answer: Schemas["CancelResult"] | null }) {
  if (!answer) return null;
  const tooLate = answer.cancel_outcome === "already_finished";
  return (
    <p role="status" aria-label="Cancel outcome" className={tooLate ? "card notice-warn" : "card"}>
      {tooLate && <strong>Not cancelled: </strong>}
      {answer.cancel_message}
    </p>
  );
}
