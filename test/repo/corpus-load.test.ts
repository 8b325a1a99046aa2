import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sotuDocuments } from "../../scripts/seed-corpus.mjs";
import { error, fakeService, json, type Recorded } from "../sdk/fake-server";
import type { ServerResponse } from "node:http";

/**
 * `npm run corpus:load -- … --admin`: how a deployed service's corpus, empty at first, is filled
 * (README "Deploy"), against a stand-in for the service's admin endpoint. The endpoint itself is the
 * service's POST /api/admin/corpus, tested in the workers project.
 */
const scratch = mkdtempSync(join(tmpdir(), "corpus-load-test-"));
const folder = mkdtempSync(join(scratch, "docs-"));
writeFileSync(join(folder, "harbor.md"), "# Harbor memo\n\nThe harbor budget was cut by 12 percent in March 2026.\n");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

function corpusLoad(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/corpus-load.ts", ...args], {
    env: { ...process.env, DEEP_RESEARCH_ADMIN_TOKEN: undefined, DEEP_RESEARCH_BASE_URL: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

interface Posted {
  documents: { url: string; title: string; text: string; domain: string }[];
}

const ingest = (req: Recorded, res: ServerResponse) => json(200, { ingested: (JSON.parse(req.body) as Posted).documents.length })(req, res);

// Each test starts the script (tsx, then wrangler's module through seed-corpus.mjs): about 2 s on a
// quiet machine, 40 s when the machine is loaded. The timeout guards against a hang, not speed.
describe("npm run corpus:load -- --admin: into a running service's shared corpus", { timeout: 240_000 }, () => {
  it("posts the demo corpus and a folder's documents to POST /api/admin/corpus with the admin's token, in calls of at most 100", async () => {
    const service = await fakeService([ingest]);
    close = service.close;

    const run = await corpusLoad(["--sotu", folder, "--admin", "--base", `${service.baseUrl}/`], { DEEP_RESEARCH_ADMIN_TOKEN: "admin-token" });
    expect(run.code, run.stderr).toBe(0);
    const demo = sotuDocuments();
    expect(run.stdout).toBe(`corpus at ${service.baseUrl}: added or replaced ${demo.length + 1} documents\n`);

    expect(service.requests.length).toBeGreaterThan(1);
    for (const request of service.requests) {
      expect(`${request.method} ${request.url}`).toBe("POST /api/admin/corpus");
      expect(request.headers.authorization).toBe("Bearer admin-token");
      expect((JSON.parse(request.body) as Posted).documents.length).toBeLessThanOrEqual(100);
    }
    const posted = service.requests.flatMap((request) => (JSON.parse(request.body) as Posted).documents);
    expect(posted.map((doc) => doc.url)).toEqual([...demo.map((doc) => doc.url), expect.stringMatching(/^file:\/\/.*\/harbor\.md$/)]);
    expect(posted[0]).toEqual({ url: demo[0]!.url, title: demo[0]!.title, text: demo[0]!.text, domain: "sotu.corpus" });
    expect(posted.at(-1)).toMatchObject({ title: "Harbor memo", domain: "local.corpus" });
  });

  it("says what to do when the account is not an admin (403) or the token is refused (401)", async () => {
    const notAdmin = await fakeService([error(403, "forbidden", "Admin access required.")]);
    close = notAdmin.close;
    const refused = await corpusLoad([folder, "--admin", "--base", notAdmin.baseUrl], { DEEP_RESEARCH_ADMIN_TOKEN: "user-token" });
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe(
      "corpus:load: 403 forbidden: Admin access required.\nThe account is not an admin: put its email in ADMIN_EMAILS (wrangler.toml's [vars]), deploy, then log in again.\n",
    );
    expect(notAdmin.requests).toHaveLength(1);
    await close();

    const expired = await fakeService([error(401, "unauthorized", "Invalid access token.")]);
    close = expired.close;
    const run = await corpusLoad([folder, "--admin"], { DEEP_RESEARCH_ADMIN_TOKEN: "old-token", DEEP_RESEARCH_BASE_URL: expired.baseUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^corpus:load: 401 unauthorized: Invalid access token\.\nAn access token lasts 15 minutes: log in again/);
  });

  it("without a token and without a terminal: asks nothing, sends nothing, says how to give one", async () => {
    const service = await fakeService([ingest]);
    close = service.close;
    const run = await corpusLoad([folder, "--admin", "--base", service.baseUrl], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^corpus:load: --admin needs an admin's access token in DEEP_RESEARCH_ADMIN_TOKEN \(POST http:\/\/127\.0\.0\.1:\d+\/api\/auth\/login/,
    );
    expect(service.requests).toEqual([]);
  });
});
