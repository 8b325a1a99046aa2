import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/engine.md kept true: every file it names exists, and every file of the engine is named.
 * The doc's convention (its "Layout" section): `engine/…` and `providers/…` are under
 * src/research/; a stage path (`write/brief.ts`) or a root file (`pipeline.ts`) is under
 * src/research/engine/; a path starting with one of ROOT_FOLDERS starts at the repository root.
 */
const DOC = "docs/engine.md";
const ROOT = resolve(".");
const RESEARCH = join(ROOT, "src/research");
const ENGINE = join(RESEARCH, "engine");
const ROOT_FOLDERS = ["src/", "scripts/", "eval/", "migrations/", "docs/", "test/"];
/** How a named file ends; a path ending in `/*` or `/` names a folder. */
const FILE = /\.(?:ts|mjs|js|json|jsonl|md|sql)$/;

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return isDir(path) ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Backticked words that look like a path: no spaces or URL punctuation, a file ending or a folder. */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return [
    ...new Set(
      spans.filter((span) => /^[\w.][\w./*-]*$/.test(span) && !span.startsWith(".") && (FILE.test(span) || (span.includes("/") && /\/\*?$/.test(span)))),
    ),
  ];
}

/** The absolute path a name of the doc stands for (null: outside the repository, e.g. ../shared). */
function resolveNamed(name: string): string | null {
  if (name.startsWith("../")) return null;
  if (ROOT_FOLDERS.some((folder) => name.startsWith(folder))) return join(ROOT, name);
  if (name.startsWith("engine/") || name.startsWith("providers/")) return join(RESEARCH, name);
  return join(ENGINE, name);
}

/** Whether a named path exists: a file, a folder (`providers/search/*`, `question/`), or a glob over file names (`write/typed*.ts`). */
function exists(path: string): boolean {
  if (path.endsWith("/*") || path.endsWith("/")) return isDir(path.replace(/\/\*?$/, ""));
  if (path.includes("*")) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    const pattern = new RegExp(
      `^${path
        .slice(path.lastIndexOf("/") + 1)
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, "[^/]*")}$`,
    );
    return isDir(dir) && readdirSync(dir).some((name) => pattern.test(name));
  }
  return isFile(path);
}

const doc = readFileSync(join(ROOT, DOC), "utf8");
const named = namedPaths(doc);
const resolved = named.flatMap((name) => {
  const path = resolveNamed(name);
  return path ? [{ name, path }] : [];
});

describe(`the files ${DOC} names`, () => {
  it("reads the doc's paths", () => {
    expect(named.length).toBeGreaterThan(60);
    expect(named).toContain("write/brief.ts");
    expect(named).toContain("providers/search/*");
  });

  it("every file or folder it names exists", () => {
    const missing = resolved.filter(({ path }) => !exists(path)).map(({ name, path }) => `${name} (${relative(ROOT, path)})`);
    expect(missing).toEqual([]);
  });

  it("every file of src/research/engine/ is named by its path (a glob does not count)", () => {
    const exact = new Set(resolved.filter(({ name }) => !name.includes("*")).map(({ path }) => path));
    const unnamed = sourceFiles(ENGINE)
      .filter((file) => !exact.has(file))
      .map((file) => relative(ENGINE, file));
    expect(unnamed).toEqual([]);
  });

  it("catches a missing file (the check is not vacuous)", () => {
    expect(namedPaths("`answer/no-such-file.ts`, `providers/none/*`, `https://x.org/a.md`, `text/plain`, `.md`")).toEqual([
      "answer/no-such-file.ts",
      "providers/none/*",
    ]);
    expect(exists(resolveNamed("answer/no-such-file.ts")!)).toBe(false);
    expect(exists(resolveNamed("providers/none/*")!)).toBe(false);
    expect(exists(resolveNamed("answer/short-answer.ts")!)).toBe(true);
    expect(resolveNamed("src/research/pricing/charge.ts")).toBe(join(RESEARCH, "pricing/charge.ts"));
    expect(resolveNamed("engine/pipeline.ts")).toBe(join(ENGINE, "pipeline.ts"));
  });
});
