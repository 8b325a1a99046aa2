import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

/** The TypeScript blocks of sdk/README.md's "Tools for agents" section, as the reader copies them. */
function readmeToolExamples(): string[] {
  const readme = readFileSync(join(root, "sdk", "README.md"), "utf8");
  const start = readme.indexOf("\n## Tools for agents\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/**
 * The tool definitions against the frameworks' own types (test/sdk/tool-types.ts: OpenAI's
 * ChatCompletionTool and Responses FunctionTool, Anthropic's Tool, the result of `ai`'s tool()),
 * and the README's example for each framework, compiled as a reader would run it against the
 * `openai`, `@anthropic-ai/sdk` and `ai` packages: a renamed field or a wrong shape fails here.
 */
// It runs the TypeScript compiler (several seconds, more on a loaded machine): not a speed check.
it("the tool definitions are what each framework's types accept, and the README's examples compile", { timeout: 120_000 }, () => {
  const examples = readmeToolExamples();
  expect(examples).toHaveLength(4); // OpenAI Chat Completions, OpenAI Responses, Anthropic, Vercel AI SDK
  // Under sdk/ (its tsconfig and node_modules resolution); sdk/.samples-*/ is git-ignored.
  const dir = mkdtempSync(join(root, "sdk", ".samples-tools-"));
  try {
    const files = examples.map((source, index) => {
      const file = join(dir, `example-${index}.ts`);
      writeFileSync(file, `${source.replace('from "deep-research"', 'from "../src/index.js"')}\nexport {};\n`);
      return relative(dir, file);
    });
    files.push(relative(dir, join(root, "test", "sdk", "tool-types.ts")));
    // The package's own settings (NodeNext, strict), as a project of the SDK's users compiles.
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../tsconfig.json", compilerOptions: { noEmit: true }, include: [], files }));
    const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
