import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of docs/architecture.md, kept true: a file may import only from a lower layer or
 * from its own folder. Listed top to bottom; the first matching prefix wins, so a feature's
 * public entry is matched before its folder.
 */
const LAYERS: { name: string; rank: number; paths: string[] }[] = [
  { name: "worker entry", rank: 7, paths: ["index.ts"] },
  { name: "app", rank: 6, paths: ["app.ts"] },
  { name: "routes", rank: 5, paths: ["routes/"] },
  { name: "middleware", rank: 4, paths: ["middleware/"] },
  { name: "admin", rank: 4, paths: ["admin/"] },
  { name: "research", rank: 3, paths: ["research/"] },
  { name: "http", rank: 3, paths: ["http/"] },
  { name: "services", rank: 2, paths: ["services/"] },
  { name: "webhooks", rank: 2, paths: ["webhooks/"] },
  { name: "rate-limit", rank: 2, paths: ["rate-limit/"] },
  { name: "lib", rank: 1, paths: ["lib/"] },
  { name: "db", rank: 1, paths: ["db/"] },
  { name: "env", rank: 1, paths: ["env.ts"] },
];

const SRC = resolve("src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function layerOf(file: string) {
  const path = relative(SRC, file);
  const layer = LAYERS.find((candidate) => candidate.paths.some((prefix) => path === prefix || path.startsWith(prefix)));
  if (!layer) throw new Error(`${path} is in no layer of docs/architecture.md: add it there and here`);
  return layer;
}

/** The files of src/ that `file` imports (relative specifiers only: packages are not layers). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => {
    const target = resolve(dirname(file), specifier);
    for (const candidate of [target, `${target}.ts`, join(target, "index.ts")]) {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    }
    throw new Error(`${relative(SRC, file)} imports ${specifier}, which is no file`);
  });
}

const edges = sourceFiles(SRC).flatMap((from) => importsOf(from).filter((to) => to.startsWith(SRC)).map((to) => ({ from, to })));
const rel = (file: string) => relative(SRC, file);
const topFolder = (file: string) => rel(file).split("/")[0] ?? "";

describe("the layers of docs/architecture.md", () => {
  it("reads every file of src/ and its imports", () => {
    expect(edges.length).toBeGreaterThan(300);
  });

  it("every import goes down a layer or stays in its own folder", () => {
    const upward = edges
      .filter(({ from, to }) => topFolder(from) !== topFolder(to) && layerOf(to).rank >= layerOf(from).rank)
      .map(({ from, to }) => `${rel(from)} (${layerOf(from).name}) imports ${rel(to)} (${layerOf(to).name})`);
    expect(upward).toEqual([]);
  });

  it("outside research/, only its front door (research/service.ts) is imported", () => {
    const reachingIn = edges
      .filter(({ from, to }) => topFolder(from) !== "research" && topFolder(to) === "research" && rel(to) !== "research/service.ts")
      .map(({ from, to }) => `${rel(from)} imports ${rel(to)}`);
    expect(reachingIn).toEqual([]);
  });

  it("the engine and the providers never reach the job, its queue, submit or the service", () => {
    const engineFolders = ["research/engine/", "research/providers/"];
    const allowedInResearch = ["research/pricing.ts", "research/shapes.ts", ...engineFolders];
    const violations = edges
      .filter(({ from }) => engineFolders.some((folder) => rel(from).startsWith(folder)))
      .filter(({ to }) => topFolder(to) === "research" && !allowedInResearch.some((allowed) => rel(to).startsWith(allowed)))
      .map(({ from, to }) => `${rel(from)} imports ${rel(to)}`);
    expect(violations).toEqual([]);
  });

  it("db/ and lib/ import nothing of ours but themselves (db: drizzle schemas; lib: pure helpers)", () => {
    const violations = edges
      .filter(({ from, to }) => ["db", "lib"].includes(topFolder(from)) && topFolder(to) !== topFolder(from))
      .map(({ from, to }) => `${rel(from)} imports ${rel(to)}`);
    expect(violations).toEqual([]);
  });

  it("catches an upward import (the check is not vacuous)", () => {
    expect(layerOf(join(SRC, "services/ledger.ts")).rank).toBeLessThan(layerOf(join(SRC, "routes/api/auth.ts")).rank);
    expect(layerOf(join(SRC, "research/service.ts")).rank).toBeGreaterThan(layerOf(join(SRC, "services/deps.ts")).rank);
  });
});
