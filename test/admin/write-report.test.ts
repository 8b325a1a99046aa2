import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WriteReport } from "../../src/research/engine";
import { ResearchJob } from "../../src/research/job/job";
import type { Outcome } from "../../src/research/job/job-state";
import { call, dbFirst, json, type TestUser } from "../helpers";
import { apiCaller, ensureCorpus, research, waitForTerminal } from "../research/helpers";

/** What a model's write stage reports (issue 40): one claim kept at once, one revised and dropped, the answer kept. */
const REPORT: WriteReport = {
  claims: [
    { text: "The McKinley Tariff of 1890 raised duties to almost fifty percent.", kept: true, revised: false, reason: null },
    { text: "The tariff was repealed in 1898.", kept: false, revised: true, reason: "1898 is in none of its quotes" },
  ],
  answer: { text: "William McKinley", kept: true, reason: null },
  calls: 2,
};

type Finish = (this: ResearchJob, outcome: Outcome) => Promise<void>;
const prototype = ResearchJob.prototype as unknown as { finish: Finish };
const original = prototype.finish;

/**
 * The engine's output as the write stage hands it to the job when a model wrote the brief: the
 * job's settlement is given the same output with `write_report` set (offline, the engine sets none).
 */
function engineReports(report: WriteReport): void {
  prototype.finish = function (outcome) {
    return original.call(this, outcome.status === "succeeded" ? { ...outcome, output: { ...outcome.output, write_report: report } } : outcome);
  };
}

let admin: TestUser;
beforeAll(async () => {
  admin = await ensureCorpus();
});
afterEach(() => {
  prototype.finish = original;
});

async function finishedJob(): Promise<{ id: string; result: any }> {
  const caller = await apiCaller();
  const accepted = await json(await research(caller, { question: "Who authored the McKinley Tariff of 1890?", mode: "lite", async: true }));
  const result = await waitForTerminal(caller, accepted.id);
  expect(result.status).toBe("succeeded");
  // The customer's own read of the job, once its row is written (the list reads D1).
  const read = await json(await call(`/v1/research/${accepted.id}`, { token: caller.key }));
  return { id: accepted.id, result: read };
}

const adminDetail = async (id: string) => json(await call(`/api/admin/jobs/${id}`, { token: admin.accessToken }));

describe("the write stage's report: the operator's, never the customer's", () => {
  it("a job whose engine output carries a write_report shows it on the admin job detail, not in the customer's result", async () => {
    engineReports(REPORT);
    const { id, result } = await finishedJob();
    expect(result).not.toHaveProperty("write_report");
    expect(JSON.stringify(result)).not.toContain("1898 is in none of its quotes");

    const detail = await adminDetail(id);
    expect(detail.write_report).toEqual(REPORT);
    // The raw response the admin sees is the customer's result: the report is beside it, not in it.
    expect(detail.response).not.toHaveProperty("write_report");
    const row = await dbFirst<{ write_report: string; result_json: string }>("select write_report, result_json from research_jobs where id = ?", id);
    expect(JSON.parse(row!.write_report)).toEqual(REPORT);
    expect(row!.result_json).not.toContain("write_report");
  });

  it("a job written offline has none: write_report is null", async () => {
    const { id } = await finishedJob();
    expect((await adminDetail(id)).write_report).toBeNull();
  });
});
