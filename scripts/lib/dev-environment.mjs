// The ENVIRONMENT of a local run. wrangler.toml's [vars] say production, which is what a deploy must
// be; `npm start` (and everything started through it: e2e, browser tests, benches, the eval) runs
// development, unless the caller chose: `--var ENVIRONMENT:...` among the flags, or ENVIRONMENT in
// the local env file wrangler reads (the --env-file ones given, else .dev.vars, else .env and
// .env.local).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The wrangler dev flags that make a local run development: `["--var", "ENVIRONMENT:development"]`, or none when the caller chose. */
export function environmentArgs(args, root) {
  const chosenByFlag = args.some((arg, i) => (arg === "--var" && args[i + 1]?.startsWith("ENVIRONMENT:")) || arg.startsWith("--var=ENVIRONMENT:"));
  if (chosenByFlag || localFilesSet("ENVIRONMENT", args, root)) return [];
  return ["--var", "ENVIRONMENT:development"];
}

/** Does a local env file wrangler reads set `key`? */
function localFilesSet(key, args, root) {
  const given = args.flatMap((arg, i) => (arg === "--env-file" ? [args[i + 1]] : arg.startsWith("--env-file=") ? [arg.slice("--env-file=".length)] : []));
  const dotDevVars = join(root, ".dev.vars");
  const files =
    given.length > 0
      ? given.map((file) => resolve(root, file))
      : existsSync(dotDevVars)
        ? [dotDevVars]
        : [".env", ".env.local"].map((file) => join(root, file));
  return files.some((file) => existsSync(file) && new RegExp(`^\\s*${key}\\s*=`, "m").test(readFileSync(file, "utf8")));
}
