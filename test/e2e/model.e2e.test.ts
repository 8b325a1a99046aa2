import { rmSync } from "node:fs";
import type { Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { type StandInStats, startStandIn } from "../../scripts/eval/stand-in-model";
import { newAccount, type StartedServer, startServer } from "./server";

/**
 * Issue 27 on the customer's path: `npm start` with LLM_PROVIDER=openai pointed at a local
 * OpenAI-compatible stand-in (scripts/eval/stand-in-model.ts) on 127.0.0.1. A pro job submitted
 * over HTTP has the model plan, reflect, write and check its claims, and still keeps the contract:
 * every [n] resolves to a source that was read, every citation's quote is exact.
 */
describe("a job with a hosted model configured", () => {
  let standIn: { server: Server; baseUrl: string; stats: StandInStats } | undefined;
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
});
