import { spawn } from "node:child_process";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { DeepResearch } from "../../sdk/src/index";
import { newAccount, serverClient, untilHealthy } from "./server";

const server = serverClient(inject("server"));
/** Its jobs run until cancelled (global-setup.ts): where Ctrl-C is tried. */
const heldServer = serverClient(inject("heldServer"));
let key: string;
let api: DeepResearch;
let heldKey: string;
let heldApi: DeepResearch;

beforeAll(async () => {
  await untilHealthy(heldServer);
  [{ key }, { key: heldKey }] = await Promise.all([newAccount(server, "cli-e2e"), newAccount(heldServer, "cli-e2e")]);
  api = new DeepResearch({ apiKey: key, baseUrl: server.baseUrl });
  heldApi = new DeepResearch({ apiKey: heldKey, baseUrl: heldServer.baseUrl });
}, 280_000);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as the README documents it in this repository (`node sdk/bin/deep-research.mjs`),
 * with the key and base URL in the environment. `onStderr` sees stderr as it grows.
 */
function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; onStderr?: (stderr: string, child: ReturnType<typeof spawn>) => void } = {},
): Promise<Run> {
  const child = spawn(process.execPath, ["sdk/bin/deep-research.mjs", ...args], {
    env: { ...process.env, DEEP_RESEARCH_API_KEY: key, DEEP_RESEARCH_BASE_URL: server.baseUrl, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    options.onStderr?.(stderr, child);
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const TARIFFS = "How did presidents describe tariffs in the 19th century?";

describe("the deep-research CLI against npm start", () => {
  it("prints the brief as Markdown with its numbered sources, and the progress on stderr", async () => {
    const run = await cli([TARIFFS, "--mode", "lite"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^# ${TARIFFS.replace("?", "\\?")}\\n\\n`));
    expect(run.stdout).toMatch(/\[1\]/);
    const sources = run.stdout.slice(run.stdout.indexOf("\n## Sources\n"));
    expect(sources).toMatch(/\n1\. \[[^\]]+\]\(corpus:\/\/sotu\.corpus\/[^)]+\) — sotu\.corpus\n/);
    // Every [n] the brief cites is a numbered source.
    const cited = Math.max(...[...run.stdout.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])));
    expect(sources).toContain(`\n${cited}. [`);
    expect(run.stderr).toMatch(/^job [0-9a-f-]{36} accepted \(lite, up to \$0\.150\); Ctrl-C cancels it\n/);
    expect(run.stderr).toMatch(/\nsearching · wave 1\/1 · \d+ sources · \$0\.\d{3} \/ \$0\.150\n/);
    expect(run.stderr).toMatch(/\nsucceeded · 15 credits \(\$0\.15\) charged · \d+ sources cited · [\d.]+ s · job [0-9a-f-]{36}\n$/);
  });

  it("--json prints the ResearchResult JSON only; --collection and --webhook reach the request", async () => {
    const run = await cli([TARIFFS, "--mode", "lite", "--json", "--quiet"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout) as { id: string; status: string; credits_charged: number };
    expect(result).toMatchObject({ status: "succeeded", credits_charged: 15 });
    expect(await api.get(result.id)).toEqual(result);

    const unknown = await cli(["Harbor budget?", "--mode", "lite", "--collection", "5e0c2d8e-3f53-4c43-9d77-0a3a1f9e7f11"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/The service refused the request \(not_found\)/);
    const unsafe = await cli(["Harbor budget?", "--mode", "lite", "--webhook", "http://10.0.0.1/hook"]);
    expect(unsafe.code).toBe(2);
    expect(unsafe.stderr).toMatch(/\(invalid_request\): Invalid request: .*webhook_url/);
  });

  it("--schema sends the JSON Schema and prints the typed object", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-schema-"));
    const schemaFile = join(dir, "schema.json");
    writeFileSync(
      schemaFile,
      JSON.stringify({
        type: "object",
        properties: { summary: { type: "string" }, presidents: { type: "array", items: { type: "string" } } },
        required: ["summary", "presidents"],
      }),
    );
    const run = await cli(["Which presidents talked about tariffs?", "--mode", "lite", "--schema", schemaFile]);
    expect(run.code, run.stderr).toBe(0);
    const typed = JSON.parse(run.stdout) as { summary: unknown; presidents: unknown };
    expect(typeof typed.summary).toBe("string");
    expect(Array.isArray(typed.presidents)).toBe(true);

    const missing = await cli(["q?", "--schema", join(dir, "nope.json")]);
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toMatch(/--schema: cannot read .*nope\.json \(ENOENT\)/);
  });

  it("Ctrl-C while a job runs cancels it through the API and exits 130, saying what was charged", async () => {
    let interrupted = false;
    const run = await cli(["What did presidents say about railroads, canals and the telegraph?", "--mode", "max", "--max-credits", "40"], {
      env: { DEEP_RESEARCH_API_KEY: heldKey, DEEP_RESEARCH_BASE_URL: heldServer.baseUrl },
      onStderr: (stderr, child) => {
        // The first progress line: the job is running.
        if (!interrupted && / · \$\d/.test(stderr)) {
          interrupted = true;
          child.kill("SIGINT");
        }
      },
    });
    expect(interrupted).toBe(true);
    expect(run.code, run.stderr).toBe(130);
    const id = /^job ([0-9a-f-]{36}) accepted/.exec(run.stderr)![1]!;
    const charged = /\nCancelled job [0-9a-f-]{36}: charged (\d+) credits? \(\$[\d.]+\) for the work already done, the rest refunded\.\n$/.exec(run.stderr);
    expect(charged, run.stderr).not.toBeNull();
    expect(await heldApi.get(id)).toMatchObject({ status: "cancelled", credits_charged: Number(charged![1]) });
    expect(run.stdout).toBe("");
    // `jobs --status` lists that account's cancelled jobs only.
    const cancelledOnly = JSON.parse(
      (await cli(["jobs", "--status", "cancelled", "--json"], { env: { DEEP_RESEARCH_API_KEY: heldKey, DEEP_RESEARCH_BASE_URL: heldServer.baseUrl } })).stdout,
    ) as { id: string; status: string }[];
    expect(cancelledOnly.map((job) => job.id)).toContain(id);
    expect(cancelledOnly.every((job) => job.status === "cancelled")).toBe(true);
  });

  it("credits, jobs and cancel", async () => {
    const credits = await cli(["credits"]);
    const balance = await api.credits();
    expect(credits).toMatchObject({ code: 0, stdout: `${balance.credits} credits ($${balance.usd})\n` });

    const [newest] = await api.list({ limit: 1 });
    const jobs = await cli(["jobs", "--limit", "3"]);
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jobs.stdout.split("\n")[0]).toMatch(/^ID +CREATED \(UTC\) +STATUS +CREDITS +QUESTION$/);
    expect(jobs.stdout.split("\n")[1]).toContain(newest!.id);

    const finished = (await api.list({ status: "succeeded", limit: 1 }))[0]!;
    const cancel = await cli(["cancel", finished.id]);
    expect(cancel).toMatchObject({
      code: 0,
      stdout: `Job ${finished.id} had already succeeded (charged ${finished.credits_charged} credits ($${(finished.credits_charged / 100).toFixed(2)})): nothing to cancel.\n`,
    });
  });

  it("says what to do about a missing or refused key (exit 3) and a balance too low (exit 4)", async () => {
    const refused = await cli(["credits"], { env: { DEEP_RESEARCH_API_KEY: "dr_live_not_a_key" } });
    expect(refused).toMatchObject({
      code: 3,
      stdout: "",
      stderr: `Your API key was refused: set DEEP_RESEARCH_API_KEY to a key from the dashboard (API keys page, ${server.baseUrl}/keys).\n`,
    });
    const missing = await cli([TARIFFS], { env: { DEEP_RESEARCH_API_KEY: undefined } });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^DEEP_RESEARCH_API_KEY is not set/);

    const broke = await cli([TARIFFS, "--mode", "max", "--max-credits", "1000000"]);
    expect(broke.code).toBe(4);
    expect(broke.stderr).toContain("Your credit balance is too low for this job: This max job needs 1000000 credits");
    expect(broke.stderr).toContain(`Billing page (${server.baseUrl}/billing)`);
  });

  it("--quote prints what the job would reserve and run within, and runs nothing", async () => {
    const before = await api.credits();
    const run = await cli([TARIFFS, "--mode", "lite", "--quote"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      "Quote for a lite job (nothing was reserved or charged):\n" +
        "  price     15 credits ($0.15), fixed (reserved when submitted)\n" +
        "  envelope  up to 1 wave, 4 searches, 5 pages, 60 s\n" +
        "  runs      sync (the API answers with the result)\n" +
        `  balance   ${before.credits} credits ($${before.usd}): covered by the balance\n`,
    );
    const broke = await cli([TARIFFS, "--mode", "max", "--max-credits", "1000000", "--quote", "--json"]);
    expect(broke.code).toBe(4);
    expect(JSON.parse(broke.stdout)).toMatchObject({
      covered: false,
      insufficient_credits: `This max job needs 1000000 credits; the balance is ${before.credits}.`,
    });
    expect(await api.credits()).toEqual(before);
  });
});
