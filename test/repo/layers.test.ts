import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
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
  { name: "monitors", rank: 4, paths: ["monitors/"] },
  { name: "research", rank: 3, paths: ["research/"] },
  { name: "http", rank: 3, paths: ["http/"] },
  { name: "services", rank: 2, paths: ["services/"] },
  { name: "webhooks", rank: 2, paths: ["webhooks/"] },
  { name: "rate-limit", rank: 2, paths: ["rate-limit/"] },
  { name: "lib", rank: 1, paths: ["lib/"] },
  { name: "db", rank: 1, paths: ["db/"] },
  { name: "env", rank: 1, paths: ["env.ts"] },
];

/**
 * The layers inside research/ (docs/architecture.md, "Inside research/"), paths under src/research/.
 * A file of research/ may import only from a lower one of these layers or from its own entry: the
 * job's files import each other, a request never imports the collections, nothing imports the
 * front door, and the engine, the providers and the price list never import what runs them.
 */
const RESEARCH_LAYERS: { name: string; rank: number; paths: string[] }[] = [
  { name: "front door", rank: 7, paths: ["service.ts"] },
  // Submit (and what it checks: a quote, a plan, a follow-up), the job object, and its tasks' fan-out.
  { name: "the job", rank: 6, paths: ["submit/", "job/", "tasks/"] },
  { name: "request", rank: 5, paths: ["request/"] },
  { name: "collections", rank: 5, paths: ["collections/"] },
  { name: "engine", rank: 4, paths: ["engine/"] },
  { name: "providers", rank: 3, paths: ["providers/"] },
  // Shapes name the charge rules the price list decides (charge_basis.rule).
  { name: "shapes", rank: 2, paths: ["shapes.ts", "event-shapes.ts"] },
  { name: "pricing", rank: 1, paths: ["pricing/"] },
];

const SRC = resolve("src");
const RESEARCH = join(SRC, "research");

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

/**
 * The module specifiers a source text names, read with the TypeScript parser: `import … from`,
 * `export … from`, `import x = require(…)`, `import("…")` and `import("…").T` with a string
 * literal, whatever quotes they are written in. Type-only imports count: they tie layers together too.
 */
function specifiersIn(text: string, fileName = "source.ts"): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteralLike(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteralLike(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** The file a relative specifier of `file` stands for. */
function resolveImport(file: string, specifier: string): string {
  const target = resolve(dirname(file), specifier);
  for (const candidate of [target, `${target}.ts`, join(target, "index.ts")]) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  throw new Error(`${relative(SRC, file)} imports ${specifier}, which is no file`);
}

/** The files of src/ that `file` imports (relative specifiers only: packages are not layers). */
function importsOf(file: string, text = readFileSync(file, "utf8")): string[] {
  return specifiersIn(text, file)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolveImport(file, specifier));
}

type Edge = { from: string; to: string };

const edges: Edge[] = sourceFiles(SRC).flatMap((from) =>
  importsOf(from)
    .filter((to) => to.startsWith(SRC))
    .map((to) => ({ from, to })),
);
const rel = (file: string) => relative(SRC, file);
const topFolder = (file: string) => rel(file).split("/")[0] ?? "";

/** The imports of `edges` that run up a layer (or sideways into another folder of the same layer). */
function upwardImports(list: Edge[]): string[] {
  return list
    .filter(({ from, to }) => topFolder(from) !== topFolder(to) && layerOf(to).rank >= layerOf(from).rank)
    .map(({ from, to }) => `${rel(from)} (${layerOf(from).name}) imports ${rel(to)} (${layerOf(to).name})`);
}

function researchLayerOf(file: string) {
  const path = relative(RESEARCH, file);
  const layer = RESEARCH_LAYERS.find((candidate) => candidate.paths.some((prefix) => path === prefix || path.startsWith(prefix)));
  if (!layer) throw new Error(`research/${path} is in no layer of research/ in docs/architecture.md: add it there and here`);
  return layer;
}

/** The imports between two files of research/ that do not go down a research layer (nor stay in their own entry). */
function upwardInResearch(list: Edge[]): string[] {
  const inResearch = (file: string) => file.startsWith(`${RESEARCH}/`);
  return list
    .filter(({ from, to }) => inResearch(from) && inResearch(to))
    .filter(({ from, to }) => researchLayerOf(from) !== researchLayerOf(to) && researchLayerOf(to).rank >= researchLayerOf(from).rank)
    .map(({ from, to }) => `${rel(from)} (${researchLayerOf(from).name}) imports ${rel(to)} (${researchLayerOf(to).name})`);
}

/** The edges a source text at `file` (which need not exist) would add. */
const edgesOfText = (file: string, text: string): Edge[] => importsOf(file, text).map((to) => ({ from: file, to }));

describe("the import reader", () => {
  it("reads single- and double-quoted imports, export … from, import() and import type", () => {
    const text = [
      `import { a } from '../lib/single';`,
      `import type { B } from "../lib/double";`,
      `export { c } from '../lib/reexport';`,
      `export * from "../lib/star";`,
      `const d = await import('../lib/dynamic');`,
      `type E = import("../lib/type-import").E;`,
      `import f = require('../lib/require');`,
      `import "../lib/side-effect";`,
      `const notAnImport = "from '../lib/in-a-string'";`,
      "// import { g } from '../lib/in-a-comment';",
    ].join("\n");
    expect(specifiersIn(text)).toEqual([
      "../lib/single",
      "../lib/double",
      "../lib/reexport",
      "../lib/star",
      "../lib/dynamic",
      "../lib/type-import",
      "../lib/require",
      "../lib/side-effect",
    ]);
  });

  it("reports an upward import written with single quotes (the hole the regular expression left)", () => {
    const file = join(SRC, "services/example.ts");
    for (const text of [
      `import { app } from '../routes/api/auth';`,
      `import { app } from "../routes/api/auth";`,
      `export { app } from '../routes/api/auth';`,
      `const routes = () => import('../routes/api/auth');`,
    ]) {
      expect(upwardImports(edgesOfText(file, text))).toEqual(["services/example.ts (services) imports routes/api/auth.ts (routes)"]);
    }
    expect(upwardImports(edgesOfText(file, `import { ok } from '../lib/errors';`))).toEqual([]);
  });
});

describe("the layers of docs/architecture.md", () => {
  it("reads every file of src/ and its imports", () => {
    expect(edges.length).toBeGreaterThan(300);
  });

  it("every import goes down a layer or stays in its own folder", () => {
    expect(upwardImports(edges)).toEqual([]);
  });

  it("outside research/, only its front door (research/service.ts) is imported", () => {
    const reachingIn = edges
      .filter(({ from, to }) => topFolder(from) !== "research" && topFolder(to) === "research" && rel(to) !== "research/service.ts")
      .map(({ from, to }) => `${rel(from)} imports ${rel(to)}`);
    expect(reachingIn).toEqual([]);
  });

  it("the engine and the providers never reach the job, its queue, submit or the service", () => {
    const engineFolders = ["research/engine/", "research/providers/"];
    const allowedInResearch = ["research/pricing/", "research/shapes.ts", ...engineFolders];
    const violations = edges
      .filter(({ from }) => engineFolders.some((folder) => rel(from).startsWith(folder)))
      .filter(({ to }) => topFolder(to) === "research" && !allowedInResearch.some((allowed) => rel(to).startsWith(allowed)))
      .map(({ from, to }) => `${rel(from)} imports ${rel(to)}`);
    expect(violations).toEqual([]);
  });

  it("inside research/, every import goes down a layer (front door, the job, request and collections, engine, providers, prices and shapes) or stays in its own", () => {
    expect(upwardInResearch(edges)).toEqual([]);
  });

  it("every file of research/ is in a research layer", () => {
    const files = sourceFiles(RESEARCH);
    expect(files.length).toBeGreaterThan(60);
    for (const file of files) expect(researchLayerOf(file).rank).toBeGreaterThan(0);
  });

  it("catches an upward import inside research/ (the check is not vacuous)", () => {
    const cases: [string, string, string][] = [
      [
        "collections/ingest.ts",
        `import { submitResearch } from '../submit/submit';`,
        "research/collections/ingest.ts (collections) imports research/submit/submit.ts (the job)",
      ],
      [
        "providers/search/brave.ts",
        `import { terms } from "../../engine/language";`,
        "research/providers/search/brave.ts (providers) imports research/engine/language/index.ts (engine)",
      ],
      ["engine/run.ts", `import type { JobSpec } from './../job/job-state';`, "research/engine/run.ts (engine) imports research/job/job-state.ts (the job)"],
      [
        "request/request.ts",
        `export { ingest } from "../collections/ingest";`,
        "research/request/request.ts (request) imports research/collections/ingest.ts (collections)",
      ],
      ["pricing/charge.ts", `import type { ResearchResult } from '../shapes';`, "research/pricing/charge.ts (pricing) imports research/shapes.ts (shapes)"],
      ["job/job.ts", `const door = () => import('../service');`, "research/job/job.ts (the job) imports research/service.ts (front door)"],
    ];
    for (const [from, text, report] of cases) expect(upwardInResearch(edgesOfText(join(RESEARCH, from), text))).toEqual([report]);
    expect(upwardInResearch(edgesOfText(join(RESEARCH, "job/job.ts"), `import { jobObject } from './job-object';`))).toEqual([]);
    expect(upwardInResearch(edgesOfText(join(RESEARCH, "providers/search/brave.ts"), `import type { SearchHit } from '../types';`))).toEqual([]);
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
