import { afterEach, describe, expect, it } from "vitest";
import { cancelAnswer } from "../../src/research/job/cancel-outcome";
import { call, expectError, insertJob, json } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, holdTasks, research, submitHeldJob } from "./helpers";

/**
 * What a cancel did (issue 38): DELETE answers the job as the spec says (200, the ResearchResult)
 * plus `cancel_outcome` and `cancel_message`, so a cancel that arrived after the job ended is
 * never silent. Every job is held by its state: finished before the cancel is sent, or held
 * mid-wave at its queue; nothing races a timer.
 */

let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

const cancel = (path: string, token: string) => call(path, { method: "DELETE", token });

describe("a cancel that arrives after the job ended", () => {
  it("answers the job unchanged and says it had already succeeded and what it was charged, on both surfaces", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const submitted = await research(caller, { question: "What ended the Nullification Crisis?", mode: "lite" });
    expect(submitted.status).toBe(200);
    const done = await json(submitted);
    expect(done).toMatchObject({ status: "succeeded", credits_charged: 15 });
    const balance = await balanceOf(caller);

    const response = await cancel(`/v1/research/${done.id}`, caller.key);
    expect(response.status).toBe(200);
    const { cancel_outcome, cancel_message, ...job } = await json(response);
    expect(job).toEqual(done);
    expect(cancel_outcome).toBe("already_finished");
    expect(cancel_message).toBe("The job had already succeeded when the cancel arrived: it was charged 15 credits ($0.15). Nothing was changed.");
    expect(await balanceOf(caller)).toBe(balance);

    // The dashboard's cancel (the playground's and the job page's) answers the same.
    const fromDashboard = await json(await cancel(`/api/playground/research/${done.id}`, caller.accessToken));
    expect(fromDashboard).toMatchObject({ id: done.id, status: "succeeded", cancel_outcome: "already_finished", cancel_message });
  });

  it("says a failed job had failed, refunded", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    // A required field no source supports fails the job on its typed output.
    const schema = { type: "object", properties: { code: { type: "string" } }, required: ["code"], additionalProperties: false };
    const failed = await json(await research(caller, { question: "What ended the Nullification Crisis?", mode: "lite", response_schema: schema }));
    expect(failed.status).toBe("failed");

    const answer = await json(await cancel(`/v1/research/${failed.id}`, caller.key));
    expect(answer).toMatchObject({
      status: "failed",
      credits_charged: 0,
      cancel_outcome: "already_finished",
      cancel_message: "The job had already failed when the cancel arrived: it was charged 0 credits ($0.00). Nothing was changed.",
    });
  });
});

describe("a cancel that stops the job", () => {
  it("says it cancelled and what was charged; a second cancel says the job had already been cancelled", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    hold = holdTasks();
    const id = await submitHeldJob(caller, hold);

    const first = await json(await cancel(`/v1/research/${id}`, caller.key));
    expect(first).toMatchObject({ status: "cancelled", cancel_outcome: "cancelled" });
    const cost = `${first.credits_charged} credit${first.credits_charged === 1 ? "" : "s"} ($${(first.credits_charged / 100).toFixed(2)})`;
    expect(first.cancel_message).toBe(`Cancelled: the job was charged ${cost} for the work already done, and the rest of its reservation was refunded.`);

    const second = await json(await cancel(`/v1/research/${id}`, caller.key));
    const { cancel_outcome: _, cancel_message: __, ...job } = first;
    expect(second).toEqual({
      ...job,
      cancel_outcome: "already_finished",
      cancel_message: `The job had already been cancelled: it was charged ${cost} for the work done before it stopped. Nothing was changed.`,
    });
  });

  it("a job whose submit is still starting it (its row written, its object not yet told) is 503 with Retry-After", async () => {
    const caller = await apiCaller();
    const id = await insertJob(caller.id, { status: "pending", charge: false });
    const response = await cancel(`/v1/research/${id}`, caller.key);
    await expectError(response, 503, "service_unavailable");
    expect(response.headers.get("Retry-After")).toBe("1");
  });
});

describe("cancelAnswer", () => {
  it("a job that ended otherwise while the cancel waited for its last step: not stopped by the cancel", () => {
    const failed = { status: "failed", credits_charged: 0 } as Parameters<typeof cancelAnswer>[0];
    expect(cancelAnswer(failed, false)).toMatchObject({
      cancel_outcome: "already_finished",
      cancel_message: "The job failed before the cancel could stop it: it was charged 0 credits ($0.00).",
    });
  });
});
