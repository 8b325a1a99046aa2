import { spawn } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { newAccount, serverClient } from "./server";

const server = serverClient(inject("server"));

async function api(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(server.baseUrl + path, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A command's exit status and output, without blocking the event loop (a hang guard of 200 s). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 200_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe("collections through npm start", () => {
  it("npm run corpus:load -- --sotu --collection loads the demo speeches into a customer's collection over the API, and research there cites only them", async () => {
    const { key } = await newAccount(server, "collections-e2e");
    const { id } = (await api("/v1/collections", key, { body: { name: "State of the Union" } })).body;
    // Run asynchronously: spawnSync blocked this process's event loop for the whole load, so a
    // keep-alive connection the server closed meanwhile was reused for the next request and
    // failed with "other side closed" (seen when the machine was busy and the load took long).
    const load = await run("npx", ["tsx", "scripts/corpus-load.ts", "--sotu", "--collection", id], {
      ...process.env,
      DEEP_RESEARCH_API_KEY: key,
      DEEP_RESEARCH_BASE_URL: server.baseUrl,
    });
    expect(load.status, load.stderr).toBe(0);
    expect(load.stdout).toMatch(/added or replaced 2\d\d documents/);
    const collection = (await api(`/v1/collections/${id}`, key)).body;
    expect(collection.document_count).toBeGreaterThan(200);
    const job = await api("/v1/research", key, { body: { question: "What did Abraham Lincoln say about slavery?", mode: "lite", collections: [id] } });
    expect(job.status).toBe(200);
    expect(job.body.status).toBe("succeeded");
    expect(job.body.sources.length).toBeGreaterThan(0);
    for (const source of job.body.sources) {
      expect(source.url).toMatch(new RegExp(`^collection://${id}/`));
      expect(source.domain).toBe("State of the Union");
    }
  });
});
