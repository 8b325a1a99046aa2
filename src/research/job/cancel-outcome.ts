import type { CancelResult, ResearchResult } from "../shapes";

/** Credits as the dashboard and the CLI write them: "60 credits ($0.60)". */
const charged = (credits: number) => `${credits} credit${credits === 1 ? "" : "s"} ($${(credits / 100).toFixed(2)})`;

/**
 * The answer to a cancel: the job as the cancel left it, and what the cancel did. A cancel that
 * arrives after the job ended (a corpus job ends in well under a second) changes nothing, and
 * says so instead of answering the finished job without a word (issue 38).
 *
 * `endedBefore`: the job was terminal when the cancel arrived. A job still running then ends
 * cancelled, unless its last step ended it otherwise before it noticed the cancel (a typed
 * output that failed): the cancel did not stop that one either.
 */
export function cancelAnswer(result: ResearchResult, endedBefore: boolean): CancelResult {
  const stopped = !endedBefore && result.status === "cancelled";
  return { ...result, cancel_outcome: stopped ? "cancelled" : "already_finished", cancel_message: cancelMessage(result, stopped, endedBefore) };
}

function cancelMessage(result: ResearchResult, stopped: boolean, endedBefore: boolean): string {
  const cost = charged(result.credits_charged);
  if (stopped) return `Cancelled: the job was charged ${cost} for the work already done, and the rest of its reservation was refunded.`;
  if (result.status === "cancelled")
    return `The job had already been cancelled: it was charged ${cost} for the work done before it stopped. Nothing was changed.`;
  if (endedBefore) return `The job had already ${result.status} when the cancel arrived: it was charged ${cost}. Nothing was changed.`;
  return `The job ${result.status} before the cancel could stop it: it was charged ${cost}.`;
}
