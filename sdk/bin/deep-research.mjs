#!/usr/bin/env node
// The deep-research command. Published, the package runs its compiled CLI (dist/). In this
// repository (src/ is there, dist/ is not shipped), it runs the TypeScript sources through tsx,
// a devDependency of the repository: `npx deep-research` (`npm install` links it into
// node_modules/.bin: scripts/link-cli.mjs), `node sdk/bin/deep-research.mjs` or `npm run --silent cli --`.
import { existsSync } from "node:fs";

const sources = new URL("../src/cli/main.ts", import.meta.url);
let main;
if (existsSync(sources)) {
  // `npm run cli` without --silent: npm printed its banner ("> deep-research-api@… cli") on stdout
  // before this started. Into a file or a pipe it stays there, above the result: say so, and how not to.
  const env = process.env;
  if (env.npm_lifecycle_event === "cli" && env.npm_package_name === "deep-research-api" && env.npm_config_loglevel !== "silent" && !process.stdout.isTTY) {
    process.stderr.write(
      "deep-research: npm wrote its own banner at the top of stdout; `npx deep-research …` (or `npm run --silent cli -- …`) prints only the CLI's output.\n",
    );
  }
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL("../dist/cli/main.js", import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2));
