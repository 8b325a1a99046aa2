import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { environmentArgs } from "../../scripts/lib/dev-environment.mjs";

/** The value of `key` in the `[section]` of a TOML file (a string value on one line). */
function tomlValue(text: string, section: string, key: string): string | undefined {
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[+([^\]]+)\]+$/.exec(line);
    if (header) current = header[1]!.trim();
    const pair = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([^"]*)"$/.exec(line);
    if (pair && current === section && pair[1] === key) return pair[2];
  }
  return undefined;
}

const scratch = mkdtempSync(join(tmpdir(), "dev-environment-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("ENVIRONMENT: production when deployed, development when run locally", () => {
  it("wrangler.toml's [vars] (what `wrangler deploy` ships) say production", () => {
    expect(tomlValue(readFileSync("wrangler.toml", "utf8"), "vars", "ENVIRONMENT")).toBe("production");
  });

  it("npm start runs scripts/start.mjs, which passes ENVIRONMENT development to wrangler dev", () => {
    expect(JSON.parse(readFileSync("package.json", "utf8")).scripts.start).toBe("node scripts/start.mjs");
    const start = readFileSync("scripts/start.mjs", "utf8");
    expect(start).toMatch(/import \{ environmentArgs \} from "\.\/lib\/dev-environment\.mjs"/);
    expect(start).toMatch(/extraArgs\.push\(\.\.\.environmentArgs\(args, root\)\)/);
    expect(start).toMatch(/const devArgs = \["dev", .*\.\.\.extraArgs\]/);
    expect(environmentArgs(["--port", "9999", "--var", "RATE_LIMIT_SCALE:100"], scratch)).toEqual(["--var", "ENVIRONMENT:development"]);
  });

  it("a local run may still choose: --var ENVIRONMENT:... or ENVIRONMENT in the env file wrangler reads", () => {
    expect(environmentArgs(["--var", "ENVIRONMENT:production"], scratch)).toEqual([]);
    expect(environmentArgs(["--var=ENVIRONMENT:production"], scratch)).toEqual([]);
    writeFileSync(join(scratch, ".dev.vars"), "JWT_SECRET=x\nENVIRONMENT=production\n");
    expect(environmentArgs([], scratch)).toEqual([]);
    // Wrangler reads the --env-file files given instead of .dev.vars.
    writeFileSync(join(scratch, "other.env"), "JWT_SECRET=x\n");
    expect(environmentArgs(["--env-file", "other.env"], scratch)).toEqual(["--var", "ENVIRONMENT:development"]);
  });

  it("the workers test project runs as development (its bindings override wrangler.toml's)", () => {
    expect(readFileSync("vitest.config.ts", "utf8")).toMatch(/bindings: \{[^}]*ENVIRONMENT: "development"/s);
  });
});
