import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { signatureHeader, standardSignatureHeader } from "../../src/webhooks/signing";
import { newAccount, serverClient, untilHealthy } from "./server";

/**
 * The Python SDK (sdk-python, `deep_research`) against the service `npm start` runs: its pytest
 * suite (sdk-python/tests), run with Debian's /usr/bin/python3 (python3-httpx, python3-pytest),
 * against the e2e global setup's two servers (no server of its own): the usual one, and the one
 * whose jobs run until cancelled. This file makes the accounts and keys, and signs webhook
 * deliveries with the service's own code (src/webhooks/signing.ts) under an account's real
 * secret, for the SDK's verifier to check. pytest's output is the failure message.
 */
const server = serverClient(inject("server"));
const heldServer = serverClient(inject("heldServer"));
const PYTHON = process.env.PYTHON_FOR_SDK_TESTS ?? "/usr/bin/python3";

/** Deliveries as the service signs them: a terminal one (both signatures) and a lifecycle event's envelope. */
async function webhookFixtures(accessToken: string) {
  const answer = await fetch(`${server.baseUrl}/api/settings/webhook-secret`, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!answer.ok) throw new Error(`webhook secret: ${answer.status} ${await answer.text()}`);
  const { secret } = (await answer.json()) as { secret: string };
  const timestamp = Math.floor(Date.now() / 1000);
  const jobId = crypto.randomUUID();
  const body = JSON.stringify({
    id: jobId,
    status: "succeeded",
    question: "Tariffs — 19th century?",
    brief: "Clay spoke of tariffs [1].",
    credits_charged: 15,
  });
  const started = JSON.stringify({
    type: "research.started",
    job_id: jobId,
    created_at: new Date(timestamp * 1000).toISOString(),
    data: { status: "running" },
  });
  const startedId = `${jobId}:research.started`;
  return {
    secret,
    timestamp,
    body,
    service_headers: {
      "X-Service-Signature": await signatureHeader(secret, body),
      "X-Service-Event": "research.completed",
      "X-Service-Delivery": jobId,
      "X-Service-Timestamp": String(timestamp),
    },
    standard_headers: {
      "webhook-id": jobId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await standardSignatureHeader(secret, jobId, timestamp, body),
    },
    started: {
      body: started,
      headers: {
        "X-Service-Event": "research.started",
        "webhook-id": startedId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await standardSignatureHeader(secret, startedId, timestamp, started),
      },
    },
  };
}

function pytest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // --color=no: `npm test` sets FORCE_COLOR (to 0 off a terminal), which pytest reads as "colour
    // on", and the summary line checked below would start with an escape code.
    const child = spawn(PYTHON, ["-m", "pytest", "sdk-python/tests", "-q", "-p", "no:cacheprovider", "--color=no"], {
      cwd: process.cwd(),
      env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the Python SDK against npm start", () => {
  it("passes its pytest suite (sdk-python/tests)", async () => {
    // Each account starts with the signup credits: the continuing tests (follow-ups, plans, monitor
    // runs) spend on an account of their own, so the rest keep the balance they assert on.
    const [main, second, continuing] = await Promise.all([
      newAccount(server, "python-sdk"),
      newAccount(server, "python-sdk-second"),
      newAccount(server, "python-sdk-continuing"),
    ]);
    await untilHealthy(heldServer);
    const held = await newAccount(heldServer, "python-sdk-held");
    const dir = mkdtempSync(join(tmpdir(), "python-sdk-e2e-"));
    try {
      const fixtures = join(dir, "webhooks.json");
      writeFileSync(fixtures, JSON.stringify(await webhookFixtures(main.accessToken)));
      const { code, output } = await pytest({
        DEEP_RESEARCH_BASE_URL: server.baseUrl,
        DEEP_RESEARCH_API_KEY: main.key,
        DEEP_RESEARCH_SECOND_API_KEY: second.key,
        DEEP_RESEARCH_CONTINUING_API_KEY: continuing.key,
        DEEP_RESEARCH_HELD_BASE_URL: heldServer.baseUrl,
        DEEP_RESEARCH_HELD_API_KEY: held.key,
        DEEP_RESEARCH_WEBHOOK_FIXTURES: fixtures,
      });
      expect(code, output).toBe(0);
      // Every test ran: none was skipped or deselected by accident.
      expect(output, output).toMatch(/^\d+ passed in /m);
      expect(output).not.toMatch(/skipped|deselected|xfail/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 280_000);
});
