#!/usr/bin/env node
// `npm run deploy [-- <flags>]`: puts the service on the Cloudflare account wrangler is logged in to.
// Every step is idempotent and says what it did; run it again after any failure, or to redeploy.
//  1. checks the login (`wrangler whoami`): `wrangler login`, or CLOUDFLARE_API_TOKEN (and
//     CLOUDFLARE_ACCOUNT_ID when the token reaches several accounts);
//  2. finds the D1 database of wrangler.toml (`deep-research`) or creates it, and writes its id over
//     the placeholder database_id in wrangler.toml (only that line, with a comment above it);
//  3. creates the queues wrangler.toml names (producers, consumers, dead-letter queues) that are missing;
//  4. applies the D1 migrations to the remote database; with SEARCH_PROVIDER=corpus (the default),
//     counts the corpus's documents, and when there are none says so at the end with the choices
//     (the demo corpus, your own documents, a web search provider): an empty corpus answers nothing;
//  5. secrets: generates JWT_SECRET when the Worker has none; asks for each missing optional secret
//     (email, payments, search and model keys) when run in a terminal, Enter skipping it; refuses to
//     deploy when the configured provider needs a key nobody gave. New secrets go up with the deploy
//     (`--secrets-file`, a file readable only by its owner, removed afterwards), never on a command line;
//  6. the model that writes the briefs: the operator's LLM_PROVIDER (wrangler.toml's [vars], a
//     `--var LLM_PROVIDER:…`, or `--llm <provider>`; `--llm none` is the offline extractive engine),
//     else Workers AI, which every Cloudflare account has, with its default model
//     (src/research/providers/llm/defaults.ts). Workers AI needs the AI binding, which the
//     repository's wrangler.toml leaves out (it always runs remotely, and `npm start` runs offline):
//     the deploy then uses wrangler.deploy.<pid>.toml, wrangler.toml plus `[ai] binding = "AI"`, written
//     beside it (so its paths resolve alike; gitignored) and removed afterwards;
//  7. builds the dashboard (`npm run web:build`) and runs `wrangler deploy --var ENVIRONMENT:production`;
//     when wrangler.toml sets neither DASHBOARD_URL nor LINK_HOSTS, writes the address wrangler
//     deployed to (workers.dev) into DASHBOARD_URL and deploys again: email links are built only on
//     a configured address (src/services/link-origin.ts), so without one every signup is refused.
// `--dry-run` only bundles (`wrangler deploy --dry-run --outdir <tmp>`, no account needed), with the
// model and binding a deploy would have, and prints the bundle's sizes. `--no-prompt` never asks. `--help` (`-h`) prints usage() and runs nothing.
// Other flags go to `wrangler deploy` (e.g. `--var KEY:VALUE`).
// The steps are the exported `deploy()`, which takes its command runner and prompt as arguments, so
// test/repo/deploy.test.ts drives it with a fake wrangler.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { deployedAddress, writeDashboardUrl } from "./lib/dashboard-url.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const PLACEHOLDER_DATABASE_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Limits a bundle is held to (test/repo/deploy.test.ts). The compressed one is the Workers Free
 * plan's former Worker size limit (3 MB after gzip, 10 MB on Paid), kept as this service's budget;
 * Cloudflare has since announced a single 64 MiB uncompressed limit on every plan (README "Deploy").
 */
export const FREE_PLAN_COMPRESSED_LIMIT_BYTES = 3 * 1024 * 1024;
export const UNCOMPRESSED_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The Stripe API version the service reads (src/services/billing/stripe-version.ts, the one place it
 * is written). The webhook endpoint must be created with it: its events come in the endpoint's
 * version, else the account's default, and the service refuses any other (issue 41).
 */
export const STRIPE_API_VERSION = /STRIPE_API_VERSION = "([^"]+)"/.exec(readFileSync(join(root, "src/services/billing/stripe-version.ts"), "utf8"))?.[1];
if (!STRIPE_API_VERSION) throw new Error("src/services/billing/stripe-version.ts names no STRIPE_API_VERSION");

/**
 * The Workers AI model a deploy writes with when the operator chose none (the `"workers-ai"` entry of
 * src/research/providers/llm/defaults.ts, the one place default model ids are written).
 */
export const WORKERS_AI_DEFAULT_MODEL = /"workers-ai": "([^"]+)"/.exec(readFileSync(join(root, "src/research/providers/llm/defaults.ts"), "utf8"))?.[1];
if (!WORKERS_AI_DEFAULT_MODEL) throw new Error('src/research/providers/llm/defaults.ts names no "workers-ai" model');

/** The values of LLM_PROVIDER (src/env.ts LLM_PROVIDER; a test compares). `--llm none` is extractive. */
export const LLM_PROVIDERS = ["extractive", "openai", "anthropic", "workers-ai"];

/** What a deploy writes with when wrangler.toml's [vars] and the flags name no LLM_PROVIDER. */
export const DEFAULT_DEPLOY_LLM = "workers-ai";

/**
 * The Wrangler config a deploy with Workers AI uses: wrangler.toml plus the AI binding, beside it so
 * its paths (main, assets) resolve alike; named by the process, so two runs (the tests' dry runs) never
 * share one. Gitignored (`wrangler.deploy.*.toml`).
 */
export const aiConfigPath = (configPath, pid = process.pid) => join(dirname(configPath), `wrangler.deploy.${pid}.toml`);

/** Whether a Wrangler config (TOML) binds Workers AI (an `[ai]` table). */
export const hasAiBinding = (text) => /^\s*\[ai\]\s*(?:#.*)?$/m.test(text);

/** wrangler.toml with `[ai] binding = "AI"` appended (unchanged when it has an [ai] table). */
export function withAiBinding(text) {
  if (hasAiBinding(text)) return text;
  return [
    text.replace(/\n*$/, ""),
    "",
    "# Added by `npm run deploy` (scripts/deploy.mjs) for LLM_PROVIDER=workers-ai. Workers AI always runs",
    "# remotely, so the repository's wrangler.toml has no [ai]: `npm start` stays offline.",
    "[ai]",
    'binding = "AI"',
    "",
  ].join("\n");
}

/**
 * The model a deploy writes with, and who chose it: a flag (`--var LLM_PROVIDER:…`, `--llm`),
 * wrangler.toml's [vars], or nobody, when it is Workers AI's default. Throws on a name src/env.ts
 * would refuse (every request would answer 500).
 */
export function chooseModel(configVars, flagVars) {
  const [provider, source] =
    flagVars.LLM_PROVIDER !== undefined
      ? [flagVars.LLM_PROVIDER, "the command line"]
      : configVars.LLM_PROVIDER
        ? [configVars.LLM_PROVIDER, "wrangler.toml's [vars]"]
        : [DEFAULT_DEPLOY_LLM, "default"];
  if (!LLM_PROVIDERS.includes(provider)) {
    throw new DeployError(
      `LLM_PROVIDER=${provider} (${source}) is not a model provider: ${orList(LLM_PROVIDERS)}${provider === "none" ? " (--llm none is extractive)" : ""}`,
    );
  }
  const model = provider === "workers-ai" ? (flagVars.LLM_MODEL ?? configVars.LLM_MODEL ?? WORKERS_AI_DEFAULT_MODEL) : undefined;
  return { provider, source, model, aiBinding: provider === "workers-ai" };
}

/** What the deploy says about the model it chose. */
export function modelNotice({ provider, source, model }) {
  const chosenBy = source === "default" ? "wrangler.toml's [vars] and the flags name none: the deploy's default" : source;
  const others =
    "another: --llm openai|anthropic (or LLM_PROVIDER in wrangler.toml's [vars], kept for every deploy); none: --llm none (the offline extractive engine)";
  if (provider === "workers-ai") {
    return `model: LLM_PROVIDER=workers-ai (${chosenBy}): briefs are written by Workers AI's ${model} through the AI binding this deploy adds (wrangler.toml plus [ai] binding = "AI", as wrangler.deploy.<pid>.toml for the deploy's length), no key needed; Workers AI bills the account per token in neurons (README "Deploy"). ${others[0].toUpperCase()}${others.slice(1)}`;
  }
  if (provider === "extractive") return `model: none, LLM_PROVIDER=extractive (${chosenBy}): the offline extractive engine writes the briefs`;
  return `model: LLM_PROVIDER=${provider} (${chosenBy})`;
}

/** Optional secrets the service reads (src/env.ts), in the order they are asked. */
export const OPTIONAL_SECRETS = [
  { name: "RESEND_API_KEY", about: "emails are delivered through Resend (without it they are only recorded in the outbox)" },
  { name: "STRIPE_SECRET_KEY", about: 'payments (Stripe secret key, sk_...); price ids are vars, README "Billing"' },
  {
    name: "STRIPE_WEBHOOK_SECRET",
    about: `verifies Stripe's webhook (whsec_...) of an endpoint created with api_version ${STRIPE_API_VERSION}, README "Billing"`,
  },
  { name: "BRAVE_API_KEY", about: "web search with SEARCH_PROVIDER=brave", provider: ["SEARCH_PROVIDER", "brave"] },
  { name: "TAVILY_API_KEY", about: "web search with SEARCH_PROVIDER=tavily", provider: ["SEARCH_PROVIDER", "tavily"] },
  { name: "EXA_API_KEY", about: "web search with SEARCH_PROVIDER=exa", provider: ["SEARCH_PROVIDER", "exa"] },
  { name: "OPENAI_API_KEY", about: "a model with LLM_PROVIDER=openai (optional for a server that takes no key)", provider: ["LLM_PROVIDER", "openai"] },
  { name: "ANTHROPIC_API_KEY", about: "a model with LLM_PROVIDER=anthropic", provider: ["LLM_PROVIDER", "anthropic"] },
];

/** The secret a provider cannot work without (src/env.ts SEARCH_PROVIDER / LLM_PROVIDER `requires`, the secret ones; a test compares). */
export const PROVIDER_SECRETS = {
  SEARCH_PROVIDER: { brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY", exa: "EXA_API_KEY" },
  LLM_PROVIDER: { anthropic: "ANTHROPIC_API_KEY" },
};

/** The web search providers (src/env.ts SEARCH_PROVIDER, every name but corpus; a test compares) and what each needs. */
export const WEB_SEARCH_PROVIDERS = { brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY", exa: "EXA_API_KEY", searxng: "SEARXNG_URL" };

/** `npm run deploy -- --help`. */
export function usage() {
  const secrets = OPTIONAL_SECRETS.map((secret) => `  ${secret.name.padEnd(22)} ${secret.about}`);
  return [
    "Usage: npm run deploy [-- <flags>]      (the same: node scripts/deploy.mjs [flags])",
    "",
    "Puts this service on the Cloudflare account wrangler is logged in to. Each step says what it did and",
    "is idempotent: run it again after a failure, and to ship each new version.",
    "  1. login       wrangler whoami; without a login it stops and says how to get one",
    '  2. D1          finds or creates the database "deep-research", writes its id into wrangler.toml',
    "  3. queues      creates the queues wrangler.toml names that are missing",
    "  4. migrations  wrangler d1 migrations apply DB --remote; with SEARCH_PROVIDER=corpus, counts the corpus",
    "  5. secrets     generates JWT_SECRET when the Worker has none; in a terminal, asks for each missing",
    "                 optional secret (Enter skips it); refuses a provider whose key the Worker lacks",
    "  6. model       LLM_PROVIDER as wrangler.toml's [vars] or the flags name it; when they name none, Workers AI",
    `                 (${WORKERS_AI_DEFAULT_MODEL}; every Cloudflare account has it, no key), bound for the deploy by`,
    '                 wrangler.deploy.<pid>.toml (wrangler.toml plus [ai] binding = "AI", removed afterwards)',
    "  7. deploy      npm run web:build, then wrangler deploy --var ENVIRONMENT:production; without DASHBOARD_URL",
    "                 (and LINK_HOSTS), writes the workers.dev address it deployed to into wrangler.toml and deploys again",
    "",
    "Flags:",
    "  --dry-run      bundle only (no account, no network) and print the Worker's size",
    "  --no-prompt    ask for no secret, as without a terminal (CI)",
    `  --llm NAME     the model for this deploy: ${LLM_PROVIDERS.join(", ")}, or none (= extractive, no model);`,
    "                 the same as --var LLM_PROVIDER:NAME. For every deploy, set LLM_PROVIDER in wrangler.toml's [vars]",
    "  -h, --help     this text; nothing runs",
    "  other flags    go to wrangler deploy, e.g. --var ADMIN_EMAILS:you@example.com (one deploy; wrangler.toml's",
    "                 [vars] for good). Refused: --env, --config, --name, --outdir, --var ENVIRONMENT:<not production>",
    "",
    "Environment (instead of `npx wrangler login`, which opens a browser once):",
    "  CLOUDFLARE_API_TOKEN   a token that may edit Workers scripts, D1 and Queues",
    "  CLOUDFLARE_ACCOUNT_ID  the account, when the login reaches several",
    "",
    "Secrets of the Worker (step 5; later: npx wrangler secret put NAME):",
    `  ${"JWT_SECRET".padEnd(22)} signs access tokens; generated when missing (48 random bytes)`,
    ...secrets,
    "",
    'Variables: wrangler.toml\'s [vars] (ADMIN_EMAILS, DASHBOARD_URL, SEARCH_PROVIDER, LLM_PROVIDER, ...): README "Configuration".',
    "",
    'What research searches: SEARCH_PROVIDER = "corpus" (wrangler.toml\'s default) searches the documents of the',
    'deployed D1 database, which starts empty: until it holds some, every question answers "None of the sources',
    'read…". The deploy says so when the corpus is empty, with the choices: load the demo corpus or your own',
    "documents (npm run corpus:load -- --sotu --admin --base <the Worker's address>), or set SEARCH_PROVIDER to a",
    `web search provider: ${orList(Object.entries(WEB_SEARCH_PROVIDERS).map(([name, needs]) => `${name} (${needs})`))}. README "Deploy".`,
  ].join("\n");
}

/**
 * What to do about a corpus without documents (`count` 0), or one that could not be counted (null):
 * with SEARCH_PROVIDER=corpus, research finds nothing until the operator loads documents or
 * chooses web search.
 */
export function emptyCorpusNotice(workerName, count) {
  const base = `https://${workerName ?? "<worker>"}.<your subdomain>.workers.dev`;
  const keyed = Object.entries(WEB_SEARCH_PROVIDERS).filter(([, needs]) => needs.endsWith("_API_KEY"));
  return [
    count === 0
      ? "the corpus is empty. SEARCH_PROVIDER is corpus (wrangler.toml's default): research searches only the documents"
      : "the corpus could not be counted; if it is empty, nothing answers. SEARCH_PROVIDER is corpus: research searches only the documents",
    'in the deployed D1 database, and until it holds some, every question answers "None of the sources read…". Choose one:',
    "  1. Load the demo corpus, the US State of the Union addresses (1790-2021), as an admin (your email in",
    "     wrangler.toml's ADMIN_EMAILS, deployed, and signed up on the dashboard):",
    `       npm run corpus:load -- --sotu --admin --base ${base}`,
    "     It asks for the admin's email and password (or takes an access token in DEEP_RESEARCH_ADMIN_TOKEN).",
    "  2. Load your own documents: the same command with a folder (.md, .txt, .html, .jsonl) or a .jsonl file",
    '     instead of --sotu, or POST /api/admin/corpus {"documents": [{"url", "title", "text"}]} with an admin\'s token.',
    `  3. Search the web instead: in wrangler.toml's [vars] set SEARCH_PROVIDER = ${orList(keyed.map(([name]) => `"${name}"`))}`,
    `     and its key (${orList(keyed.map(([, needs]) => needs))}: npm run deploy in a terminal asks for it, or`,
    '     `npx wrangler secret put <NAME>`), or "searxng" with SEARXNG_URL = "<your SearXNG>"; then npm run deploy again.',
    'README "Deploy" says more.',
  ].join("\n");
}

/** "a, b or c". */
const orList = (words) => (words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`);

export class DeployError extends Error {
  name = "DeployError";
}

/**
 * What the deploy needs from wrangler.toml: the D1 database, the queue names, the [vars]. A reader
 * of this file's simple form (one `key = "string"` a line), not a TOML parser.
 */
export function readDeployConfig(text) {
  let section = "";
  let inD1 = false;
  const config = { workerName: undefined, d1: undefined, queues: [], vars: {} };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$|^\s*#.*$/, "").trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      section = header[1];
      inD1 = section === "d1_databases";
      if (inD1 && !config.d1) config.d1 = {};
      else if (inD1) inD1 = false; // only the first database
      continue;
    }
    const pair = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([^"]*)"$/.exec(line);
    if (!pair) continue;
    const [, key, value] = pair;
    if (section === "" && key === "name") config.workerName = value;
    if (inD1 && ["binding", "database_name", "database_id"].includes(key)) config.d1[key] = value;
    if (section.startsWith("queues.") && (key === "queue" || key === "dead_letter_queue") && !config.queues.includes(value)) config.queues.push(value);
    if (section === "vars") config.vars[key] = value;
  }
  if (!config.d1?.database_name || !config.d1.binding) throw new DeployError("wrangler.toml has no [[d1_databases]] with a binding and a database_name");
  config.aiBinding = hasAiBinding(text);
  return config;
}

/** wrangler.toml with the first D1 database's database_id set to `id`, a comment above it saying where it came from; nothing else changes. */
export function writeDatabaseId(text, id, date = new Date()) {
  const lines = text.split("\n");
  let inD1 = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (/^\[/.test(line)) inD1 = line === "[[d1_databases]]";
    if (inD1 && /^database_id\s*=/.test(line)) {
      const day = date.toISOString().slice(0, 10);
      const comment = `# Written by \`npm run deploy\` (scripts/deploy.mjs) on ${day}: the id of this database on the Cloudflare account deployed to (it was ${PLACEHOLDER_DATABASE_ID}).`;
      const previous = lines[i - 1]?.trim().startsWith("# Written by `npm run deploy`") ? 1 : 0;
      lines.splice(i - previous, 1 + previous, comment, lines[i].replace(/"[^"]*"/, `"${id}"`));
      return lines.join("\n");
    }
  }
  throw new DeployError("wrangler.toml has no database_id line under [[d1_databases]]");
}

/** JSON printed by a wrangler command, from its first `[` or `{` (a warning may come first). */
function parseJson(output, what) {
  const start = output.search(/[[{]/);
  try {
    return JSON.parse(output.slice(start));
  } catch {
    throw new DeployError(`could not read the answer of ${what}:\n${output.trim()}`);
  }
}

const QUEUE_TABLE_HEADER = new Set(["id", "name", "jurisdiction", "created_on", "modified_on", "producers", "consumers"]);

/** The cells of `wrangler queues list`'s table (│-separated), trimmed. */
function tableCells(output) {
  return output.split("\n").flatMap((line) =>
    /[│|]/.test(line)
      ? line
          .split(/[│|]/)
          .map((cell) => cell.trim())
          .filter(Boolean)
      : [],
  );
}

/** The sizes of a `wrangler deploy --outdir` bundle: its modules (not source maps or the README), as they are and gzipped. */
export function bundleSizes(outdir) {
  const modules = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith(".map") && name !== "README.md" && !name.endsWith(".json")) modules.push(path);
    }
  };
  walk(outdir);
  let bytes = 0;
  let gzipBytes = 0;
  for (const path of modules) {
    const content = readFileSync(path);
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  return { modules: modules.map((path) => path.slice(outdir.length + 1)), bytes, gzipBytes };
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Flags of `npm run deploy` itself; the rest go to `wrangler deploy`, except the ones that would deploy something else. */
export function parseArgs(args) {
  // Asked for help, the rest is not judged: `--help` anywhere prints the usage and nothing runs.
  if (args.some((arg) => arg === "--help" || arg === "-h")) return { help: true, dryRun: false, prompt: true, deployArgs: [] };
  const options = { help: false, dryRun: false, prompt: true, deployArgs: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--dry-run") options.dryRun = true;
    else if (arg === "--no-prompt") options.prompt = false;
    else if (arg === "--llm" || arg.startsWith("--llm=")) {
      const name = arg === "--llm" ? args[++i] : arg.slice(6);
      if (!name || name.startsWith("-")) throw new DeployError(`--llm needs a provider: ${LLM_PROVIDERS.join(", ")} or none`);
      options.deployArgs.push("--var", `LLM_PROVIDER:${name === "none" ? "extractive" : name}`);
    } else if (["--env", "-e", "--config", "-c", "--name", "--outdir"].some((flag) => arg === flag || arg.startsWith(`${flag}=`)))
      throw new DeployError(`${arg.split("=")[0]} is not supported by npm run deploy: it deploys wrangler.toml's top-level Worker`);
    else {
      const value = arg === "--var" ? args[i + 1] : arg.startsWith("--var=") ? arg.slice(6) : undefined;
      if (value?.startsWith("ENVIRONMENT:") && value !== "ENVIRONMENT:production")
        throw new DeployError(`refusing ${value}: a deploy is production (npm start runs development locally)`);
      options.deployArgs.push(arg);
    }
  }
  return options;
}

/**
 * The deploy, step by step. `run(argv, { capture, env })` runs `wrangler ...` or `npm ...` and
 * resolves to `{ code, stdout, stderr }` (output captured only with `capture`); `prompt(question)`
 * resolves to the typed answer; `interactive` says whether a person can answer. Throws DeployError.
 */
export async function deploy({
  run,
  prompt = async () => "",
  log = (message) => console.log(`[deploy] ${message}`),
  print = (text) => console.log(text),
  interactive = false,
  args = [],
  configPath = join(root, "wrangler.toml"),
  env = process.env,
  tempDir = () => mkdtempSync(join(tmpdir(), "deep-research-deploy-")),
}) {
  const options = parseArgs(args);
  if (options.help) {
    print(usage());
    return { help: true };
  }
  const wrangler = async (argv, extra = {}) => run(["wrangler", ...argv], extra);
  const config = readDeployConfig(readFileSync(configPath, "utf8"));
  const flagVars = varArgs(options.deployArgs);
  const vars = { ...config.vars, ...flagVars };

  // The model (step 6), chosen first: a name the Worker would refuse stops the deploy before it touches anything.
  const llm = chooseModel(config.vars, flagVars);
  vars.LLM_PROVIDER = llm.provider;
  // Every `wrangler deploy` below: wrangler.toml, or with Workers AI (unless wrangler.toml binds it
  // already) the AI config written from wrangler.toml as it is at that moment (the deploy edits it),
  // just before the call, and removed just after.
  const aiConfig = llm.aiBinding && !config.aiBinding ? aiConfigPath(configPath) : undefined;
  const targetArgs = [...(aiConfig ? ["--config", aiConfig] : []), ...(llm.source === "default" ? ["--var", `LLM_PROVIDER:${llm.provider}`] : [])];
  const wranglerDeploy = async (argv, extra = {}) => {
    if (!aiConfig) return wrangler(argv, extra);
    writeFileSync(aiConfig, withAiBinding(readFileSync(configPath, "utf8")));
    try {
      return await wrangler(argv, extra);
    } finally {
      rmSync(aiConfig, { force: true });
    }
  };

  if (options.dryRun) {
    log(modelNotice(llm));
    return dryRun({ wranglerDeploy, log, options, configPath, tempDir, targetArgs });
  }

  // 1. Login.
  const whoami = await wrangler(["whoami", "--json"], { capture: true });
  // Not logged in: exit 1 with {"loggedIn":false}. Any other failure (no network, a bad token) is wrangler's to explain.
  if (whoami.code !== 0 && !/"loggedIn"\s*:\s*false/.test(whoami.stdout)) {
    throw new DeployError(`could not check the Cloudflare login (wrangler whoami):\n${(whoami.stderr || whoami.stdout).trim()}`);
  }
  const user = whoami.code === 0 ? parseJson(whoami.stdout, "wrangler whoami") : { loggedIn: false };
  if (!user.loggedIn) {
    throw new DeployError(
      [
        "not logged in to Cloudflare. Either:",
        "  npx wrangler login            (opens a browser; the login is kept in wrangler's own config), or",
        "  export CLOUDFLARE_API_TOKEN=… (a token with Workers Scripts, D1 and Queues edit rights; and CLOUDFLARE_ACCOUNT_ID=…)",
        "then run npm run deploy again. `npm run deploy -- --dry-run` needs no account.",
      ].join("\n"),
    );
  }
  const accounts = user.accounts ?? [];
  if (accounts.length > 1 && !env.CLOUDFLARE_ACCOUNT_ID) {
    throw new DeployError(
      `logged in with access to ${accounts.length} accounts; say which one with CLOUDFLARE_ACCOUNT_ID:\n${accounts.map((a) => `  ${a.id}  ${a.name}`).join("\n")}`,
    );
  }
  const account = accounts.find((a) => a.id === env.CLOUDFLARE_ACCOUNT_ID) ?? accounts[0];
  log(`logged in${user.email ? ` as ${user.email}` : ""}${account ? `, account ${account.name} (${account.id})` : ""}`);

  // 2. D1.
  const { database_name: databaseName, database_id: configuredId, binding } = config.d1;
  const listDatabases = async () => {
    const result = await wrangler(["d1", "list", "--json"], { capture: true });
    if (result.code !== 0) throw new DeployError(`wrangler d1 list failed:\n${(result.stderr || result.stdout).trim()}`);
    return parseJson(result.stdout, "wrangler d1 list");
  };
  let databases = await listDatabases();
  let databaseId;
  if (configuredId && configuredId !== PLACEHOLDER_DATABASE_ID) {
    const named = databases.find((db) => db.uuid === configuredId);
    if (!named) {
      throw new DeployError(
        `wrangler.toml's database_id ${configuredId} is not a D1 database of this account. Put the placeholder ${PLACEHOLDER_DATABASE_ID} back to let npm run deploy find or create "${databaseName}", or correct the id.`,
      );
    }
    databaseId = configuredId;
    log(`D1: wrangler.toml names database ${named.name} (${databaseId}), which exists`);
  } else {
    let found = databases.find((db) => db.name === databaseName);
    if (found) log(`D1: database ${databaseName} exists (${found.uuid})`);
    else {
      log(`D1: creating database ${databaseName}`);
      const created = await wrangler(["d1", "create", databaseName]);
      if (created.code !== 0) throw new DeployError(`wrangler d1 create ${databaseName} failed`);
      databases = await listDatabases();
      found = databases.find((db) => db.name === databaseName);
      if (!found) throw new DeployError(`D1 database ${databaseName} was created but is not listed by wrangler d1 list`);
    }
    databaseId = found.uuid;
    writeFileSync(configPath, writeDatabaseId(readFileSync(configPath, "utf8"), databaseId));
    log(`D1: wrote database_id ${databaseId} into ${configPath} (commit it, or keep it local: README "Deploy")`);
  }

  // 3. Queues. `wrangler queues list` prints a table, a page at a time: read pages until ours are
  // all seen, a page has no rows, or a page repeats the previous one.
  const existing = new Set();
  let previousPage = "";
  for (let page = 1; page <= 100 && config.queues.some((name) => !existing.has(name)); page++) {
    const listed = await wrangler(["queues", "list", "--page", String(page)], { capture: true });
    if (listed.code !== 0) throw new DeployError(`wrangler queues list failed:\n${(listed.stderr || listed.stdout).trim()}`);
    const cells = tableCells(listed.stdout).filter((cell) => !QUEUE_TABLE_HEADER.has(cell));
    if (cells.length === 0 || cells.join("\n") === previousPage) break;
    previousPage = cells.join("\n");
    for (const cell of cells) if (config.queues.includes(cell)) existing.add(cell);
  }
  for (const name of config.queues) {
    if (existing.has(name)) {
      log(`queue ${name} exists`);
      continue;
    }
    log(`queue ${name}: creating`);
    const created = await wrangler(["queues", "create", name]);
    if (created.code !== 0) throw new DeployError(`wrangler queues create ${name} failed`);
  }

  // 4. Migrations (CI=1: wrangler applies them without asking).
  log(`D1: applying migrations to the remote database ${databaseName}`);
  const migrated = await wrangler(["d1", "migrations", "apply", binding, "--remote"], { env: { CI: "1" } });
  if (migrated.code !== 0) throw new DeployError("wrangler d1 migrations apply --remote failed");

  // What research will search: with the corpus (the default), its documents in this database, which a
  // new database has none of. Counted (one query), so a redeploy after loading them says nothing more.
  const searchProvider = vars.SEARCH_PROVIDER || "corpus";
  let corpusDocuments;
  if (searchProvider === "corpus") {
    corpusDocuments = await countCorpus(wrangler, binding);
    if (corpusDocuments === null) log("corpus: could not count its documents (wrangler d1 execute); what to do if it is empty follows the deploy");
    else if (corpusDocuments === 0) log("corpus: empty (SEARCH_PROVIDER=corpus): research will find nothing; what to do follows the deploy");
    else log(`corpus: ${corpusDocuments} document${corpusDocuments === 1 ? "" : "s"} (SEARCH_PROVIDER=corpus)`);
  } else log(`search: SEARCH_PROVIDER=${searchProvider}`);

  // 5. Secrets.
  const listed = await wrangler(["secret", "list", "--format", "json"], { capture: true });
  let secretNames;
  if (listed.code === 0) secretNames = parseJson(listed.stdout, "wrangler secret list").map((secret) => secret.name);
  else if (/not found/i.test(`${listed.stderr}\n${listed.stdout}`)) {
    secretNames = [];
    log(`secrets: Worker ${config.workerName ?? ""} does not exist yet (first deploy): no secrets so far`);
  } else throw new DeployError(`wrangler secret list failed:\n${(listed.stderr || listed.stdout).trim()}`);
  const toPut = {};
  if (secretNames.includes("JWT_SECRET")) log("secrets: JWT_SECRET is set");
  else {
    toPut.JWT_SECRET = randomBytes(48).toString("base64url");
    log("secrets: JWT_SECRET generated (48 random bytes, base64url); it goes up with the deploy");
  }
  const missing = OPTIONAL_SECRETS.filter((secret) => !secretNames.includes(secret.name));
  const skipped = [];
  for (const secret of missing) {
    if (!interactive || !options.prompt) {
      skipped.push(secret.name);
      continue;
    }
    const inUse = secret.provider ? ` (${secret.provider[0]} is ${vars[secret.provider[0]] ?? "unset"} now)` : "";
    const answer = (await prompt(`${secret.name}: ${secret.about}${inUse}. Value, or Enter to skip: `)).trim();
    if (answer) {
      toPut[secret.name] = answer;
      log(`secrets: ${secret.name} given; it goes up with the deploy`);
    } else skipped.push(secret.name);
  }
  if (skipped.length > 0) {
    const why = !interactive ? "not asked (no terminal)" : !options.prompt ? "not asked (--no-prompt)" : "skipped";
    log(`secrets: ${why}: ${skipped.join(", ")}; set one later with \`npx wrangler secret put NAME\``);
  }
  for (const [variable, needs] of Object.entries(PROVIDER_SECRETS)) {
    const secret = needs[vars[variable]];
    if (secret && !secretNames.includes(secret) && !toPut[secret]) {
      throw new DeployError(
        `${variable}=${vars[variable]} needs the secret ${secret}, which the Worker does not have: every request would answer 500. Run npm run deploy in a terminal to be asked for it, or \`npx wrangler secret put ${secret}\` first.`,
      );
    }
  }

  // 6. The model.
  log(modelNotice(llm));

  // 7. Dashboard and deploy.
  log("building the dashboard (npm run web:build)");
  const built = await run(["npm", "run", "web:build"]);
  if (built.code !== 0) throw new DeployError("npm run web:build failed");
  const secretsDir = Object.keys(toPut).length > 0 ? tempDir() : undefined;
  // Without an address for email links, wrangler's structured output file names the one it deployed
  // to (its terminal output stays the terminal's, so wrangler still asks what it asks).
  const needsAddress = !vars.DASHBOARD_URL && !vars.LINK_HOSTS;
  const outputDir = needsAddress ? tempDir() : undefined;
  const outputFile = outputDir && join(outputDir, "wrangler-output.ndjson");
  let address = null;
  try {
    const secretsArgs = [];
    if (secretsDir) {
      const file = join(secretsDir, "secrets.json");
      writeFileSync(file, JSON.stringify(toPut), { mode: 0o600 });
      secretsArgs.push("--secrets-file", file);
    }
    const deployArgv = ["deploy", "--var", "ENVIRONMENT:production", ...targetArgs, ...secretsArgs, ...options.deployArgs];
    log(`wrangler ${deployArgv.map((arg) => (secretsDir && arg.startsWith(secretsDir) ? "<secrets file>" : arg)).join(" ")}`);
    const deployed = await wranglerDeploy(deployArgv, outputFile ? { env: { WRANGLER_OUTPUT_FILE_PATH: outputFile } } : {});
    if (outputFile && existsSync(outputFile)) address = deployedAddress(readFileSync(outputFile, "utf8"));
    if (deployed.code !== 0) {
      throw new DeployError(`wrangler deploy failed${toPut.JWT_SECRET ? " (the generated JWT_SECRET was not stored; the next run generates another)" : ""}`);
    }
  } finally {
    if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  }
  if (needsAddress) await setDashboardUrl({ wranglerDeploy, log, configPath, deployArgs: [...targetArgs, ...options.deployArgs], address });
  log(
    `deployed with ENVIRONMENT=production, LLM_PROVIDER=${llm.provider}${llm.model ? ` (${llm.model})` : ""}${Object.keys(toPut).length ? ` and the secrets ${Object.keys(toPut).join(", ")}` : ""}`,
  );
  if (corpusDocuments === 0 || corpusDocuments === null) log(emptyCorpusNotice(config.workerName, corpusDocuments));
  return {
    databaseId,
    createdSecrets: Object.keys(toPut),
    skippedSecrets: skipped,
    corpusDocuments: corpusDocuments ?? null,
    llm: { provider: llm.provider, source: llm.source, model: llm.model ?? null, aiBinding: llm.aiBinding },
  };
}

/**
 * DASHBOARD_URL from the address wrangler deployed to: written into wrangler.toml (kept for every
 * later deploy, which then skips this), then one more deploy so the running Worker has it. No
 * address found: say what is refused until one is set.
 */
async function setDashboardUrl({ wranglerDeploy, log, configPath, deployArgs, address }) {
  const written = address ? writeDashboardUrl(readFileSync(configPath, "utf8"), address) : null;
  if (!written) {
    log(
      "DASHBOARD_URL: not set, and wrangler reported no workers.dev address. Until it is, signups, password resets and checkouts are refused (400) on every host but loopback: set DASHBOARD_URL (or LINK_HOSTS) in wrangler.toml's [vars] and npm run deploy again.",
    );
    return;
  }
  writeFileSync(configPath, written);
  log(`DASHBOARD_URL: wrote ${address} (the address wrangler deployed to) into ${configPath}; email links use it. Deploying again to apply it`);
  const again = await wranglerDeploy(["deploy", "--var", "ENVIRONMENT:production", ...deployArgs]);
  if (again.code !== 0) throw new DeployError(`wrangler deploy (applying DASHBOARD_URL) failed; wrangler.toml has it, so npm run deploy again applies it`);
}

/** The documents of the remote corpus (`wrangler d1 execute --remote --json`), or null when wrangler could not say. */
async function countCorpus(wrangler, binding) {
  const result = await wrangler(["d1", "execute", binding, "--remote", "--json", "--command", "SELECT COUNT(*) AS n FROM corpus_documents"], {
    capture: true,
    env: { CI: "1" },
  });
  if (result.code !== 0) return null;
  try {
    const count = parseJson(result.stdout, "wrangler d1 execute")[0]?.results?.[0]?.n;
    return Number.isInteger(count) ? count : null;
  } catch {
    return null;
  }
}

/** `--var KEY:VALUE` pairs among the flags, as an object. */
function varArgs(args) {
  const vars = {};
  args.forEach((arg, i) => {
    const value = arg === "--var" ? args[i + 1] : arg.startsWith("--var=") ? arg.slice(6) : undefined;
    const colon = value?.indexOf(":") ?? -1;
    if (colon > 0) vars[value.slice(0, colon)] = value.slice(colon + 1);
  });
  return vars;
}

/** `--dry-run`: bundle without uploading (no account), then print the sizes. Without a built dashboard, an empty assets directory stands in. */
async function dryRun({ wranglerDeploy, log, options, configPath, tempDir, targetArgs }) {
  const outdir = tempDir();
  const assetsDir = join(dirname(configPath), "web", "dist");
  const emptyAssets = existsSync(assetsDir) ? undefined : tempDir();
  try {
    if (emptyAssets) log("web/dist is not built: bundling the Worker with an empty assets directory (npm run web:build first to include the dashboard)");
    const argv = [
      "deploy",
      "--dry-run",
      "--outdir",
      outdir,
      "--var",
      "ENVIRONMENT:production",
      ...targetArgs,
      ...(emptyAssets ? ["--assets", emptyAssets] : []),
      ...options.deployArgs,
    ];
    log(`wrangler ${argv.join(" ")}`);
    const result = await wranglerDeploy(argv);
    if (result.code !== 0) throw new DeployError("wrangler deploy --dry-run failed");
    const sizes = bundleSizes(outdir);
    const share = (bytes, limit) => `${((100 * bytes) / limit).toFixed(0)}%`;
    log(
      `bundle: ${kib(sizes.bytes)} in ${sizes.modules.length} module${sizes.modules.length === 1 ? "" : "s"} (${share(sizes.bytes, UNCOMPRESSED_LIMIT_BYTES)} of the 64 MiB limit), ` +
        `${kib(sizes.gzipBytes)} gzipped (${share(sizes.gzipBytes, FREE_PLAN_COMPRESSED_LIMIT_BYTES)} of the 3 MB compressed budget)`,
    );
    return { dryRun: true, ...sizes };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
    if (emptyAssets) rmSync(emptyAssets, { recursive: true, force: true });
  }
}

/** Runs `wrangler …` (this repository's) or `npm …` with metrics off; output is captured only when asked, else it goes to the terminal. */
export function realRun(argv, { capture = false, env = {} } = {}) {
  const [command, ...rest] = argv;
  const executable = command === "wrangler" ? join(root, "node_modules", ".bin", "wrangler") : command;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(executable, rest, {
      cwd: root,
      stdio: ["inherit", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
      // node_modules/.bin first, as under `npm run`: wrangler then runs on the repository's Node (the
      // `node` devDependency) even when this script was started with an older one.
      env: { ...process.env, ...env, PATH: `${join(root, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`, WRANGLER_SEND_METRICS: "false" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
  });
}

/** Asks in the terminal without echoing the answer (it is a secret). */
function askHidden(question) {
  process.stdout.write(question);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  return new Promise((resolvePromise) => {
    rl.question("", (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolvePromise(answer);
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  deploy({ run: realRun, prompt: askHidden, interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY), args: process.argv.slice(2) }).then(
    () => process.exit(0),
    (error) => {
      console.error(`[deploy] ${error instanceof DeployError ? error.message : (error?.stack ?? error)}`);
      process.exit(1);
    },
  );
}
