import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { serverClient } from "./server";

const server = serverClient(inject("server"));
const run = promisify(execFile);

/**
 * The served /openapi.json passes Redocly's lint with the repository's redocly.yaml (recommended
 * rules, made stricter for a reference): zero errors. The output is printed when it fails.
 */
describe("the served OpenAPI document", () => {
  it("lints with zero errors (npx redocly lint, redocly.yaml)", async () => {
    const document = await (await fetch(`${server.baseUrl}/openapi.json`)).text();
    const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
    const file = join(dir, "openapi.json");
    writeFileSync(file, document);
    let output: string;
    let failed = false;
    try {
      const result = await run("npx", ["redocly", "lint", file, "--config", "redocly.yaml", "--format", "stylish"], {
        cwd: process.cwd(),
        // No telemetry or update check: the run must not wait on the network.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        timeout: 200_000, // a hang guard
      });
      output = `${result.stdout}${result.stderr}`;
    } catch (error) {
      // A lint with errors exits non-zero: its report is the failure message.
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      output = `${stdout}${stderr}${stdout || stderr ? "" : String(error)}`;
      failed = true;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(failed, output).toBe(false);
    expect(output, output).toContain("Your API description is valid");
    expect(output, output).not.toMatch(/\berror\b/);
  });
});
