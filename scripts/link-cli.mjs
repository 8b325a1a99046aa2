#!/usr/bin/env node
// `npm install` runs this (the package's `prepare` script): it links the SDK's command into
// node_modules/.bin, so `npx deep-research …` in this repository runs this repository's CLI
// (sdk/bin/deep-research.mjs), the command the published package installs, the dashboard's
// snippets show and sdk/README.md documents, and its stdout is only the CLI's (`npm run cli`
// prints npm's banner there first). Without the link, npx would fetch a package of that name from
// the registry. Idempotent; it never fails the install (without it, `node sdk/bin/deep-research.mjs`
// is the same command).
import { mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const binDir = join(root, "node_modules", ".bin");
const link = join(binDir, "deep-research");
const target = relative(binDir, join(root, "sdk", "bin", "deep-research.mjs"));

try {
  let current;
  try {
    current = readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current !== target) {
    mkdirSync(binDir, { recursive: true });
    rmSync(link, { force: true });
    symlinkSync(target, link);
  }
} catch (error) {
  console.warn(
    `link-cli: could not link node_modules/.bin/deep-research (${error instanceof Error ? error.message : String(error)}); run the CLI as node sdk/bin/deep-research.mjs`,
  );
}
