#!/usr/bin/env node
// The deep-research command. Published, the package runs its compiled CLI (dist/). In this
// repository (src/ is there, dist/ is not shipped), it runs the TypeScript sources through tsx,
// a devDependency of the repository: `node sdk/bin/deep-research.mjs` or `npm run cli --`.
import { existsSync } from "node:fs";

const sources = new URL("../src/cli/main.ts", import.meta.url);
let main;
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL("../dist/cli/main.js", import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2));
