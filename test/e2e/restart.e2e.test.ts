import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startFixture } from "../../bench/fixture";
import { newAccount, type StartedServer, startServer } from "./server";

/**
 * Issue 26 defect 5, as it happened: `npm start` is SIGKILLed while a job runs (its wave's page
 * reads are in flight, held by a local web that answers none until released), then started again
 * on the same state directory. The job must finish within seconds of the restart, with nothing
 * calling its object: it is watched through the job list, which reads only D1. Its deadline (a
 * standard job: 180 s) plays no part. The kill waits on state (reads held), never on a timer.
 */
describe("a job running when the server is killed", () => {
  let fixture: Awaited<ReturnType<typeof startFixture>> | undefined;
  const servers: StartedServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.kill();
    if (servers[0]) rmSync(servers[0].stateDir, { recursive: true, force: true });
    await fixture?.close();
  });

  it("resumes after the restart and finishes within seconds, charged once", async () => {
    // The "web" answers searches, and holds every page read until released.
    fixture = await startFixture({ latencyMs: 20, p99Ms: 20 });
    await fetch(`${fixture.baseUrl}/control/hold?after=0`, { method: "POST" });
    const vars = { SEARCH_PROVIDER: "searxng", SEARXNG_URL: fixture.baseUrl };
    const first = await startServer({ vars });
    servers.push(first);
    const { key } = await newAccount(first, "restart-e2e");
    const accepted = await first.post("/v1/research", { question: "How did tariff policy change trade volumes?", mode: "standard" }, key);
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    const status = async (baseUrl: string) => {
      const response = await fetch(`${baseUrl}/v1/research?limit=5`, { headers: { Authorization: `Bearer ${key}` } });
      const rows = (await response.json()) as { id: string; status: string; credits_charged: number }[];
      return rows.find((row) => row.id === id);
    };
    // Mid-wave: its reads are at the web, held there.
    while (fixture.heldReads() === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await status(first.baseUrl))?.status).toBe("running");

    await first.kill();
    fixture.release(); // the killed server's reads are gone; the restarted one reads at once
    const second = await startServer({ vars, stateDir: first.stateDir });
    servers.push(second);
    const restartedAt = Date.now();
    let row = await status(second.baseUrl);
    while (row?.status === "running" || row?.status === "pending") {
      // Generous for a loaded machine, and still far inside the deadline (180 s) that used to be
      // the only thing to settle a job killed mid-run (failed at deadline + 15 s).
      if (Date.now() - restartedAt > 60_000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
      row = await status(second.baseUrl);
    }
    const tookMs = Date.now() - restartedAt;
    console.log(`the killed job was ${row?.status} ${tookMs} ms after the restarted server answered /healthz`);
    expect(row).toMatchObject({ status: "succeeded", credits_charged: 60 });
    const balance = (await (await fetch(`${second.baseUrl}/v1/credits`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { credits: number };
    expect(balance.credits).toBe(440);
  }, 300_000);
});
