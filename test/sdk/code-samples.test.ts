import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { CODE_SAMPLES } from "../../src/http/code-samples";

/**
 * The reference's TypeScript samples (x-codeSamples) are type-checked against the SDK's sources,
 * so a renamed method or option fails here rather than in a customer's editor.
 */
// It runs the TypeScript compiler (several seconds, more on a loaded machine): not a speed check.
it("every TypeScript sample of the API reference compiles against the SDK", { timeout: 60_000 }, () => {
  const root = resolve(import.meta.dirname, "../..");
  const dir = mkdtempSync(join(root, "sdk", ".samples-"));
  try {
    const files = Object.values(CODE_SAMPLES).map((source, index) => {
      const file = join(dir, `sample-${index}.ts`);
      writeFileSync(file, `${source.replace('from "deep-research"', 'from "../src/index.js"')}\nexport {};\n`);
      return file;
    });
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../tsconfig.json", compilerOptions: { noEmit: true }, include: files.map((file) => file.slice(dir.length + 1)) }),
    );
    const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
    expect(files.length).toBeGreaterThanOrEqual(10);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
