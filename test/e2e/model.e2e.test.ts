import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type StandIn, startStandIn } from "../../scripts/eval/stand-in-model";
import { newAccount, type StartedServer, startServer } from "./server";

/**
 * Issue 27 on the customer's path: `npm start` with LLM_PROVIDER=openai pointed at a local
 * OpenAI-compatible stand-in (scripts/eval/stand-in-model.ts) on 127.0.0.1. A pro job submitted
 * over HTTP has the model plan, reflect, write and check its claims, and still keeps the contract:
 * every [n] resolves to a source that was read, every citation's quote is exact.
 */
describe("a job with a hosted model configured", () => {
  let standIn: StandIn | undefined;
  let service: StartedServer | undefined;
  afterAll(async () => {
    await service?.kill();
    if (service) rmSync(service.stateDir, { recursive: true, force: true });
    standIn?.server.close();
  });

  it("the model takes plan, reflect, write and critic; the brief keeps its contract", async () => {
    standIn = await startStandIn();
    service = await startServer({ vars: { LLM_PROVIDER: "openai", LLM_MODEL: "stand-in", OPENAI_BASE_URL: standIn.baseUrl } });
    const { key } = await newAccount(service, "model-e2e");
    const headers = { Authorization: `Bearer ${key}` };

    const accepted = await service.post("/v1/research", { question: "How did presidents describe the tariff?", mode: "pro" }, key);
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    let job: any;
    for (let attempt = 0; attempt < 240; attempt++) {
      job = await (await fetch(`${service.baseUrl}/v1/research/${id}`, { headers })).json();
      if (["succeeded", "failed", "cancelled"].includes(job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(job.status).toBe("succeeded");

    // Each stage asked the model (the stand-in counts its answers by kind).
    expect(standIn.stats.byKind).toMatchObject({ plan: 1, brief: 1 });
    expect(standIn.stats.byKind.reflect).toBeGreaterThanOrEqual(1);
    expect(standIn.stats.byKind.critic).toBeGreaterThanOrEqual(1);

    // The contract: every [n] is a source read, every citation quotes its source exactly.
    const cited = [...(job.brief as string).matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(cited.length).toBeGreaterThan(0);
    for (const n of cited) expect(job.sources[n - 1]).toBeDefined();
    expect(job.citations.length).toBeGreaterThan(0);

    // The job's events name each stage, with the running cost.
    const events = await (await fetch(`${service.baseUrl}/v1/research/${id}/events`, { headers })).text();
    const stages = [...events.matchAll(/"stage":"(\w+)"/g)].map((match) => match[1]);
    for (const stage of ["planning", "searching", "reading", "reflecting", "synthesizing", "critic"]) expect(stages).toContain(stage);
  }, 180_000);

  it("a cancel while the model writes the brief stops the writing: cancelled at its metered work, no brief (issue 39)", async () => {
    // The server of the test above (this file's tests run in order).
    const { key } = await newAccount(service!, "model-cancel");
    const headers = { Authorization: `Bearer ${key}` };
    const brief = standIn!.hold("brief");
    try {
      const accepted = await service!.post("/v1/research", { question: "How did presidents describe the tariff?", mode: "pro", async: true }, key);
      expect(accepted.status).toBe(202);
      const { id } = (await accepted.json()) as { id: string };
      // Held by state: the job has read its sources and waits on the model's brief.
      await brief.arrived;
      const cancel = await fetch(`${service!.baseUrl}/v1/research/${id}`, { method: "DELETE", headers });
      expect(cancel.status).toBe(200);
      const job = (await cancel.json()) as Record<string, any>;
      expect(job).toMatchObject({ status: "cancelled", cancel_outcome: "cancelled", brief: null, answer: null, citations: [], partial: true });
      // The model's call was abandoned, not waited for.
      await brief.aborted;
      expect(job.sources.length).toBeGreaterThan(0);
      expect(job.credits_charged).toBe(Math.ceil(Math.round(job.cost_usd * 1e6) / 1e4 - 1e-9));
      expect(job.credits_charged).toBeLessThan(200);
      const { cancel_outcome: _, cancel_message: __, ...result } = job;
      expect(await (await fetch(`${service!.baseUrl}/v1/research/${id}`, { headers })).json()).toEqual(result);
      const credits = (await (await fetch(`${service!.baseUrl}/v1/credits`, { headers })).json()) as { credits: number };
      expect(credits.credits).toBe(500 - job.credits_charged);
    } finally {
      brief.release();
    }
  }, 180_000);
});
