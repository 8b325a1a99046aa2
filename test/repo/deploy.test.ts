import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  aiConfigPath,
  DeployError,
  deploy,
  emptyCorpusNotice,
  FREE_PLAN_COMPRESSED_LIMIT_BYTES,
  hasAiBinding,
  LLM_PROVIDERS,
  OPTIONAL_SECRETS,
  PLACEHOLDER_DATABASE_ID,
  PROVIDER_SECRETS,
  parseArgs,
  type RunOptions,
  type RunResult,
  readDeployConfig,
  realRun,
  UNCOMPRESSED_LIMIT_BYTES,
  usage,
  WEB_SEARCH_PROVIDERS,
  WORKERS_AI_DEFAULT_MODEL,
} from "../../scripts/deploy.mjs";
import { LLM_PROVIDER, SEARCH_PROVIDER } from "../../src/env.ts";
import { DEFAULT_MODELS } from "../../src/research/providers/llm/defaults.ts";

/**
 * `npm run deploy` (scripts/deploy.mjs): its steps against a fake wrangler that keeps an account's
 * state in memory (nothing leaves the machine), then a real `wrangler deploy --dry-run`, which
 * bundles offline, held to the bundle size limits.
 */
const scratch = mkdtempSync(join(tmpdir(), "deploy-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const WRANGLER_TOML = readFileSync("wrangler.toml", "utf8");
const QUEUES = ["research-tasks", "research-tasks-1", "research-tasks-2", "research-tasks-3", "research-tasks-dlq", "webhook-deliveries"];

/** A copy of the repository's wrangler.toml in a directory of its own. */
function configCopy(): string {
  const dir = mkdtempSync(join(scratch, "config-"));
  const path = join(dir, "wrangler.toml");
  writeFileSync(path, WRANGLER_TOML);
  return path;
}

const ok = (stdout = ""): RunResult => ({ code: 0, stdout, stderr: "" });

/** `wrangler queues list` prints a cli-table3 table. */
function queueTable(names: string[]): string {
  const rows = names.map((name) => `│ ${randomUUID().replaceAll("-", "")} │ ${name} │ 2026-01-01T00:00:00Z │ 2026-01-01T00:00:00Z │ 1 │ 1 │`);
  return [
    "┌────┬──────┬────────────┬─────────────┬───────────┬───────────┐",
    "│ id │ name │ created_on │ modified_on │ producers │ consumers │",
    "├────┼──────┼────────────┼─────────────┼───────────┼───────────┤",
    ...rows,
    "└────┴──────┴────────────┴─────────────┴───────────┴───────────┘",
  ].join("\n");
}

/** An account as wrangler sees it, and the commands it was asked to run. */
class FakeWrangler {
  loggedIn = true;
  accounts = [{ id: "0123456789abcdef0123456789abcdef", name: "Test account" }];
  databases: { uuid: string; name: string }[] = [];
  queues: string[] = [];
  secrets = new Map<string, string>();
  workerExists = false;
  /** Documents in the remote corpus; null: `wrangler d1 execute` fails. */
  corpusDocuments: number | null = 0;
  calls: string[][] = [];
  /** Each `wrangler deploy`: its flags, the secrets it carried, and the Wrangler config it was given with `--config` (its text then). */
  deploys: { argv: string[]; secrets: Record<string, string> | null; secretsPath: string | null; configPath: string | null; config: string | null }[] = [];
  migrationEnvs: (Record<string, string> | undefined)[] = [];
  /** The targets `wrangler deploy` reports in its output file (WRANGLER_OUTPUT_FILE_PATH), as a real one does. */
  deployTargets: string[] = [];
  deployOptions: RunOptions[] = [];

  run = async (argv: string[], options: RunOptions = {}): Promise<RunResult> => {
    this.calls.push(argv);
    const command = argv.join(" ");
    if (command === "npm run web:build") return ok();
    const [tool, ...args] = argv;
    if (tool !== "wrangler") throw new Error(`unexpected command ${command}`);
    const sub = args.join(" ");
    if (sub === "whoami --json") {
      return this.loggedIn
        ? ok(JSON.stringify({ loggedIn: true, authType: "User API Token", email: "ops@example.com", accounts: this.accounts }))
        : { code: 1, stdout: '{"loggedIn":false}', stderr: "" };
    }
    if (sub === "d1 list --json") return ok(JSON.stringify(this.databases.map((db) => ({ ...db, created_at: "2026-01-01", num_tables: 0 }))));
    if (args[0] === "d1" && args[1] === "create") {
      this.databases.push({ uuid: randomUUID(), name: args[2]! });
      return ok();
    }
    if (args[0] === "queues" && args[1] === "list") {
      const page = Number(args[args.indexOf("--page") + 1] ?? "1");
      return ok(`\n ⛅️ wrangler 4.164.0\n${queueTable(page === 1 ? this.queues : [])}\n`);
    }
    if (args[0] === "queues" && args[1] === "create") {
      this.queues.push(args[2]!);
      return ok();
    }
    if (sub === "d1 migrations apply DB --remote") {
      this.migrationEnvs.push(options.env);
      return ok();
    }
    if (sub === "d1 execute DB --remote --json --command SELECT COUNT(*) AS n FROM corpus_documents") {
      if (this.corpusDocuments === null) return { code: 1, stdout: "", stderr: "✘ [ERROR] A request to the Cloudflare API failed." };
      return ok(JSON.stringify([{ results: [{ n: this.corpusDocuments }], success: true, meta: { duration: 0.2 } }]));
    }
    if (sub === "secret list --format json") {
      if (!this.workerExists)
        return {
          code: 1,
          stdout: "",
          stderr: '✘ [ERROR] Worker "deep-research-api" not found.\n\nIf this is a new Worker, run `wrangler deploy` first to create it.',
        };
      return ok(JSON.stringify([...this.secrets.keys()].map((name) => ({ name, type: "secret_text" }))));
    }
    if (args[0] === "deploy") {
      const at = args.indexOf("--secrets-file");
      const secretsPath = at >= 0 ? args[at + 1]! : null;
      const secrets = secretsPath ? (JSON.parse(readFileSync(secretsPath, "utf8")) as Record<string, string>) : null;
      for (const [name, value] of Object.entries(secrets ?? {})) this.secrets.set(name, value);
      const configAt = args.indexOf("--config");
      const configPath = configAt >= 0 ? args[configAt + 1]! : null;
      const config = configPath ? readFileSync(configPath, "utf8") : null;
      this.deploys.push({ argv: args, secrets, secretsPath, configPath, config });
      this.deployOptions.push(options);
      this.workerExists = true;
      const outputFile = options.env?.WRANGLER_OUTPUT_FILE_PATH;
      if (outputFile) {
        const entries = [
          { version: 1, type: "wrangler-session", wrangler_version: "4.164.0" },
          { version: 1, type: "deploy", worker_name: "deep-research-api", targets: this.deployTargets },
        ];
        writeFileSync(outputFile, entries.map((entry) => JSON.stringify(entry)).join("\n"));
      }
      return ok();
    }
    throw new Error(`unexpected command ${command}`);
  };

  creations(): string[] {
    return this.calls.filter((argv) => argv[2] === "create").map((argv) => argv.join(" "));
  }
}

const noPrompt = async (question: string): Promise<string> => {
  throw new Error(`prompted without a terminal: ${question}`);
};

describe("npm run deploy: the steps, against a fake wrangler", () => {
  it("is the package's deploy script", () => {
    expect(JSON.parse(readFileSync("package.json", "utf8")).scripts.deploy).toBe("node scripts/deploy.mjs");
  });

  it("reads wrangler.toml: the D1 database with its placeholder id, every queue, the vars", () => {
    const config = readDeployConfig(WRANGLER_TOML);
    expect(config.workerName).toBe("deep-research-api");
    expect(config.d1).toEqual({ binding: "DB", database_name: "deep-research", database_id: PLACEHOLDER_DATABASE_ID });
    expect(config.queues.sort()).toEqual([...QUEUES].sort());
    expect(config.vars.ENVIRONMENT).toBe("production");
  });

  it("on a new account: creates the database and the queues, writes the id, migrates, generates JWT_SECRET and deploys production", async () => {
    const fake = new FakeWrangler();
    const configPath = configCopy();
    const logs: string[] = [];
    const result = await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath, env: {} });

    expect(fake.creations()).toEqual(["wrangler d1 create deep-research", ...QUEUES.map((name) => `wrangler queues create ${name}`)]);
    expect(fake.queues.sort()).toEqual([...QUEUES].sort());

    // Only the database_id line changes, with a comment above it saying where the id came from.
    const id = fake.databases[0]!.uuid;
    expect(result).toMatchObject({ databaseId: id });
    const written = readFileSync(configPath, "utf8");
    expect(readDeployConfig(written).d1.database_id).toBe(id);
    const before = WRANGLER_TOML.split("\n");
    const after = written.split("\n");
    expect(after.length).toBe(before.length + 1);
    const changed = after.filter((line) => !before.includes(line));
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatch(/^# Written by `npm run deploy` \(scripts\/deploy\.mjs\) on \d{4}-\d{2}-\d{2}: /);
    expect(changed[1]).toBe(`database_id = "${id}"`);

    // Migrations without wrangler's confirmation prompt, the dashboard built before the deploy.
    expect(fake.migrationEnvs).toEqual([{ CI: "1" }]);
    const order = fake.calls.map((argv) => argv.slice(0, 3).join(" "));
    expect(order.indexOf("npm run web:build")).toBeLessThan(order.indexOf("wrangler deploy --var"));
    expect(order.indexOf("wrangler d1 migrations")).toBeLessThan(order.indexOf("wrangler deploy --var"));

    // One deploy, production, carrying the generated secret in a file removed afterwards.
    expect(fake.deploys).toHaveLength(1);
    const [deployed] = fake.deploys;
    expect(deployed!.argv.slice(0, 3)).toEqual(["deploy", "--var", "ENVIRONMENT:production"]);
    expect(deployed!.argv.filter((arg) => arg.startsWith("ENVIRONMENT:"))).toEqual(["ENVIRONMENT:production"]);
    expect(Object.keys(deployed!.secrets ?? {})).toEqual(["JWT_SECRET"]);
    expect(deployed!.secrets!.JWT_SECRET).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(existsSync(deployed!.secretsPath!)).toBe(false);
    // No secret value is ever on a command line.
    expect(fake.calls.flat()).not.toContain(deployed!.secrets!.JWT_SECRET);

    // Without a terminal the optional secrets are not asked, and the log says so.
    expect(logs.some((line) => /not asked \(no terminal\): RESEND_API_KEY, .*ANTHROPIC_API_KEY/.test(line))).toBe(true);
  });

  it("a second run creates nothing, leaves wrangler.toml alone and keeps the JWT_SECRET", async () => {
    const fake = new FakeWrangler();
    const configPath = configCopy();
    await deploy({ run: fake.run, prompt: noPrompt, log: () => {}, configPath, env: {} });
    const toml = readFileSync(configPath, "utf8");
    const secret = fake.secrets.get("JWT_SECRET");
    fake.calls = [];

    await deploy({ run: fake.run, prompt: noPrompt, log: () => {}, configPath, env: {} });
    expect(fake.creations()).toEqual([]);
    expect(fake.databases).toHaveLength(1);
    expect(fake.queues).toHaveLength(QUEUES.length);
    expect(readFileSync(configPath, "utf8")).toBe(toml);
    expect(fake.deploys).toHaveLength(2);
    expect(fake.deploys[1]!.secretsPath).toBeNull();
    expect(fake.secrets.get("JWT_SECRET")).toBe(secret);
  });

  it("without DASHBOARD_URL: writes the address wrangler deployed to into wrangler.toml and deploys again, once (issue 39)", async () => {
    const fake = new FakeWrangler();
    fake.deployTargets = ["deep-research-api.ops-team.workers.dev", "schedule: * * * * *"];
    const configPath = configCopy();
    const logs: string[] = [];
    await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath, env: {} });
    const written = readFileSync(configPath, "utf8");
    expect(readDeployConfig(written).vars.DASHBOARD_URL).toBe("https://deep-research-api.ops-team.workers.dev");
    expect(written).toMatch(
      /# Written by `npm run deploy` .*: the address wrangler deployed to; email links use it\.\nDASHBOARD_URL = "https:\/\/deep-research-api\.ops-team\.workers\.dev"\n/,
    );
    // The first deploy reported its targets in wrangler's output file; the second applies the address, with no secrets again,
    // and the same model: the AI config written afresh from wrangler.toml, which has the address now.
    expect(fake.deployOptions[0]!.env?.WRANGLER_OUTPUT_FILE_PATH).toMatch(/wrangler-output\.ndjson$/);
    expect(fake.deploys).toHaveLength(2);
    expect(fake.deploys[1]!.argv).toEqual([
      "deploy",
      "--var",
      "ENVIRONMENT:production",
      "--config",
      aiConfigPath(configPath),
      "--var",
      "LLM_PROVIDER:workers-ai",
    ]);
    expect(fake.deploys[1]!.config).toContain('DASHBOARD_URL = "https://deep-research-api.ops-team.workers.dev"');
    expect(hasAiBinding(fake.deploys[1]!.config!)).toBe(true);
    expect(logs.some((line) => line.startsWith("DASHBOARD_URL: wrote https://deep-research-api.ops-team.workers.dev"))).toBe(true);

    // The next run finds it set: one deploy, wrangler.toml untouched.
    await deploy({ run: fake.run, prompt: noPrompt, log: () => {}, configPath, env: {} });
    expect(fake.deploys).toHaveLength(3);
    expect(readFileSync(configPath, "utf8")).toBe(written);
  });

  it("without DASHBOARD_URL and no workers.dev target in wrangler's output: one deploy, and the log says what is refused until it is set", async () => {
    const fake = new FakeWrangler();
    const configPath = configCopy();
    const logs: string[] = [];
    await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath, env: {} });
    expect(fake.deploys).toHaveLength(1);
    expect(readDeployConfig(readFileSync(configPath, "utf8")).vars.DASHBOARD_URL).toBe("");
    expect(logs.some((line) => /DASHBOARD_URL: not set.*signups, password resets and checkouts are refused/.test(line))).toBe(true);
  });

  it("an account that has the database and queues already: the id is found, nothing is created", async () => {
    const fake = new FakeWrangler();
    fake.databases.push(
      { uuid: "11111111-2222-4333-8444-555555555555", name: "other" },
      { uuid: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", name: "deep-research" },
    );
    fake.queues.push("unrelated", ...QUEUES);
    const configPath = configCopy();
    await deploy({ run: fake.run, prompt: noPrompt, log: () => {}, configPath, env: {} });
    expect(fake.creations()).toEqual([]);
    expect(readDeployConfig(readFileSync(configPath, "utf8")).d1.database_id).toBe("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
  });

  it("in a terminal: asks for each missing optional secret, Enter skipping it; --no-prompt asks nothing", async () => {
    const fake = new FakeWrangler();
    fake.workerExists = true;
    fake.secrets.set("JWT_SECRET", "kept").set("STRIPE_SECRET_KEY", "sk_live_kept");
    const asked: string[] = [];
    const prompt = async (question: string) => {
      asked.push(question.split(":")[0]!);
      return question.startsWith("BRAVE_API_KEY") ? "  brave-key  " : "";
    };
    await deploy({ run: fake.run, prompt, interactive: true, log: () => {}, configPath: configCopy(), env: {} });
    const missing = OPTIONAL_SECRETS.map((secret) => secret.name).filter((name) => name !== "STRIPE_SECRET_KEY");
    expect(asked).toEqual(missing);
    expect(fake.deploys[0]!.secrets).toEqual({ BRAVE_API_KEY: "brave-key" });
    expect(fake.secrets.get("JWT_SECRET")).toBe("kept");

    const quiet = new FakeWrangler();
    await deploy({ run: quiet.run, prompt: noPrompt, interactive: true, args: ["--no-prompt"], log: () => {}, configPath: configCopy(), env: {} });
    expect(Object.keys(quiet.deploys[0]!.secrets ?? {})).toEqual(["JWT_SECRET"]);
  });

  it("refuses to continue when not logged in, before touching anything", async () => {
    const fake = new FakeWrangler();
    fake.loggedIn = false;
    const configPath = configCopy();
    await expect(deploy({ run: fake.run, prompt: noPrompt, log: () => {}, configPath, env: {} })).rejects.toThrow(
      expect.objectContaining({ name: "DeployError", message: expect.stringMatching(/not logged in.*wrangler login.*CLOUDFLARE_API_TOKEN/s) }),
    );
    expect(fake.calls).toEqual([["wrangler", "whoami", "--json"]]);
    expect(readFileSync(configPath, "utf8")).toBe(WRANGLER_TOML);
  });

  it("refuses to guess among several accounts: CLOUDFLARE_ACCOUNT_ID chooses", async () => {
    const fake = new FakeWrangler();
    fake.accounts.push({ id: "fedcba9876543210fedcba9876543210", name: "Second" });
    await expect(deploy({ run: fake.run, log: () => {}, configPath: configCopy(), env: {} })).rejects.toThrow(/CLOUDFLARE_ACCOUNT_ID/);
    expect(fake.calls).toHaveLength(1);
    await deploy({ run: fake.run, log: () => {}, configPath: configCopy(), env: { CLOUDFLARE_ACCOUNT_ID: "fedcba9876543210fedcba9876543210" } });
    expect(fake.deploys).toHaveLength(1);
  });

  it("refuses a database_id that is not a database of the account", async () => {
    const fake = new FakeWrangler();
    const configPath = configCopy();
    writeFileSync(configPath, WRANGLER_TOML.replace(PLACEHOLDER_DATABASE_ID, "99999999-9999-4999-8999-999999999999"));
    await expect(deploy({ run: fake.run, log: () => {}, configPath, env: {} })).rejects.toThrow(/not a D1 database of this account/);
    expect(fake.creations()).toEqual([]);
  });

  it("refuses to deploy a search provider without its key (every request would answer 500)", async () => {
    const fake = new FakeWrangler();
    await expect(
      deploy({ run: fake.run, prompt: noPrompt, log: () => {}, args: ["--var", "SEARCH_PROVIDER:brave"], configPath: configCopy(), env: {} }),
    ).rejects.toThrow(/SEARCH_PROVIDER=brave needs the secret BRAVE_API_KEY/);
    expect(fake.deploys).toHaveLength(0);
  });

  it("a deploy is production: ENVIRONMENT cannot be overridden, nor another environment or config chosen", () => {
    expect(() => parseArgs(["--var", "ENVIRONMENT:development"])).toThrow(DeployError);
    expect(() => parseArgs(["--var=ENVIRONMENT:development"])).toThrow(/a deploy is production/);
    expect(() => parseArgs(["--env", "staging"])).toThrow(/not supported/);
    expect(() => parseArgs(["-c", "other.toml"])).toThrow(/not supported/);
    expect(parseArgs(["--dry-run", "--var", "ADMIN_EMAILS:a@example.com"])).toEqual({
      help: false,
      dryRun: true,
      prompt: true,
      deployArgs: ["--var", "ADMIN_EMAILS:a@example.com"],
    });
  });

  it("knows the provider keys src/env.ts requires and asks for each", () => {
    for (const choice of [SEARCH_PROVIDER, LLM_PROVIDER]) {
      const requires: Readonly<Record<string, readonly string[]>> = choice.requires;
      const secretRequirements = Object.fromEntries(
        Object.entries(requires).flatMap(([name, variables]) =>
          variables.filter((variable) => variable.endsWith("_API_KEY")).map((variable) => [name, variable]),
        ),
      );
      expect(PROVIDER_SECRETS[choice.variable]).toEqual(secretRequirements);
      for (const secret of Object.values(secretRequirements)) expect(OPTIONAL_SECRETS.map((s) => s.name)).toContain(secret);
    }
  });
});

// The second test starts npm and the script (a second quiet, far more loaded): the timeout guards against a hang.
describe("npm run deploy -- --help", { timeout: 240_000 }, () => {
  it("prints the usage (the steps, the flags, the login, every secret, what research searches) and calls no wrangler", async () => {
    for (const args of [["--help"], ["-h"], ["--dry-run", "--env", "staging", "--help"]]) {
      const fake = new FakeWrangler();
      fake.loggedIn = false;
      const printed: string[] = [];
      const logs: string[] = [];
      const configPath = configCopy();
      const result = await deploy({
        run: fake.run,
        prompt: noPrompt,
        log: (line) => logs.push(line),
        print: (text) => printed.push(text),
        args,
        configPath,
        env: {},
      });
      expect(result).toEqual({ help: true });
      expect(fake.calls).toEqual([]);
      expect(logs).toEqual([]);
      expect(printed).toEqual([usage()]);
      expect(readFileSync(configPath, "utf8")).toBe(WRANGLER_TOML);
    }
    const text = usage();
    expect(text).toMatch(/^Usage: npm run deploy \[-- <flags>\]/);
    for (const flag of ["--dry-run", "--no-prompt", "--llm NAME", "-h, --help", "--var ADMIN_EMAILS:"]) expect(text).toContain(flag);
    expect(text).toMatch(/6\. model .*Workers AI\s*\n.*@cf\/zai-org\/glm-4\.7-flash.*no key/);
    expect(text).toMatch(/--llm NAME .*extractive, openai, anthropic, workers-ai, or none/);
    for (const name of ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_ACCOUNT_ID", "JWT_SECRET", ...OPTIONAL_SECRETS.map((secret) => secret.name)])
      expect(text).toContain(name);
    expect(text).toMatch(/SEARCH_PROVIDER = "corpus".*starts empty/s);
    expect(text).toContain("npm run corpus:load -- --sotu --admin --base");
  });

  it("as the README types it, with no Cloudflare login anywhere: the usage, exit 0", async () => {
    // A HOME without wrangler's login and no token: asking Cloudflare anything would say "not logged in".
    const home = mkdtempSync(join(scratch, "home-"));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("CLOUDFLARE_")));
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolvePromise) => {
      const child = spawn("npm", ["run", "deploy", "--", "--help"], { env: { ...env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${usage()}\n`);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/not logged in|\[deploy\]/);
  });
});

describe("npm run deploy: what research will search", () => {
  const CHOICES = [
    /the corpus is empty\. SEARCH_PROVIDER is corpus/,
    /"None of the sources read…"/,
    /1\. Load the demo corpus.*\n.*ADMIN_EMAILS.*\n {7}npm run corpus:load -- --sotu --admin --base https:\/\/deep-research-api\.<your subdomain>\.workers\.dev\n/,
    /2\. Load your own documents: .*folder.*\.jsonl.*\n.*POST \/api\/admin\/corpus/,
    /3\. Search the web instead: .*SEARCH_PROVIDER = "brave", "tavily" or "exa"[\s\S]*"searxng" with SEARXNG_URL/,
  ];

  it("with SEARCH_PROVIDER=corpus (wrangler.toml's default) and an empty corpus: says so after the deploy, with the three choices", async () => {
    const fake = new FakeWrangler();
    const logs: string[] = [];
    const result = await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath: configCopy(), env: {} });
    expect(result).toMatchObject({ corpusDocuments: 0 });
    // Counted in the remote database once the migrations are applied.
    const order = fake.calls.map((argv) => argv.slice(0, 3).join(" "));
    expect(order.indexOf("wrangler d1 execute")).toBeGreaterThan(order.indexOf("wrangler d1 migrations"));
    expect(fake.calls.find((argv) => argv[2] === "execute")).toContain("--remote");
    expect(logs).toContain("corpus: empty (SEARCH_PROVIDER=corpus): research will find nothing; what to do follows the deploy");
    // The last thing said, after wrangler's own output of the deploy.
    expect(logs.at(-2)).toMatch(/^deployed with ENVIRONMENT=production/);
    expect(logs.at(-1)).toBe(emptyCorpusNotice("deep-research-api", 0));
    for (const choice of CHOICES) expect(logs.at(-1)).toMatch(choice);
  });

  it("a corpus that holds documents is counted and nothing more is said", async () => {
    const fake = new FakeWrangler();
    fake.corpusDocuments = 233;
    const logs: string[] = [];
    const result = await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath: configCopy(), env: {} });
    expect(result).toMatchObject({ corpusDocuments: 233 });
    expect(logs).toContain("corpus: 233 documents (SEARCH_PROVIDER=corpus)");
    expect(logs.join("\n")).not.toMatch(/corpus is empty|Choose one/);
    expect(logs.at(-1)).toMatch(/^deployed with ENVIRONMENT=production/);
  });

  it("a corpus that cannot be counted: the deploy goes on and still gives the choices", async () => {
    const fake = new FakeWrangler();
    fake.corpusDocuments = null;
    const logs: string[] = [];
    const result = await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath: configCopy(), env: {} });
    expect(result).toMatchObject({ corpusDocuments: null });
    expect(fake.deploys).toHaveLength(1);
    expect(logs.at(-1)).toMatch(/^the corpus could not be counted; if it is empty, nothing answers/);
    for (const choice of CHOICES.slice(1)) expect(logs.at(-1)).toMatch(choice);
  });

  it("with a web search provider (wrangler.toml's [vars] or --var) the corpus is neither counted nor mentioned", async () => {
    const inToml = new FakeWrangler();
    inToml.workerExists = true;
    inToml.secrets.set("JWT_SECRET", "kept").set("BRAVE_API_KEY", "brave-key");
    const configPath = configCopy();
    writeFileSync(configPath, WRANGLER_TOML.replace('SEARCH_PROVIDER = "corpus"', 'SEARCH_PROVIDER = "brave"'));
    const logs: string[] = [];
    const result = await deploy({ run: inToml.run, prompt: noPrompt, log: (line) => logs.push(line), configPath, env: {} });
    expect(result).toMatchObject({ corpusDocuments: null });
    expect(logs).toContain("search: SEARCH_PROVIDER=brave");

    const byFlag = new FakeWrangler();
    const flagLogs: string[] = [];
    await deploy({
      run: byFlag.run,
      prompt: noPrompt,
      log: (line) => flagLogs.push(line),
      args: ["--var", "SEARCH_PROVIDER:searxng", "--var", "SEARXNG_URL:https://searx.example.org"],
      configPath: configCopy(),
      env: {},
    });
    expect(flagLogs).toContain("search: SEARCH_PROVIDER=searxng");

    for (const [fake, said] of [
      [inToml, logs],
      [byFlag, flagLogs],
    ] as const) {
      expect(fake.deploys).toHaveLength(1);
      expect(fake.calls.filter((argv) => argv[2] === "execute")).toEqual([]);
      expect(said.join("\n")).not.toMatch(/corpus/);
    }
  });

  it("knows the web search providers src/env.ts has", () => {
    const { corpus, ...web } = SEARCH_PROVIDER.requires;
    expect(corpus).toEqual([]);
    expect(Object.fromEntries(Object.entries(web).map(([name, needs]) => [name, needs.join(",")]))).toEqual(WEB_SEARCH_PROVIDERS);
  });
});

describe("npm run deploy: the model that writes (issue 41, item 9)", () => {
  /** wrangler.toml with `LLM_PROVIDER = "<provider>"` in its [vars] (the repository's names none). */
  function configWith(provider: string): string {
    const path = configCopy();
    writeFileSync(path, WRANGLER_TOML.replace('SEARCH_PROVIDER = "corpus"\n', `SEARCH_PROVIDER = "corpus"\nLLM_PROVIDER = "${provider}"\n`));
    expect(readDeployConfig(readFileSync(path, "utf8")).vars.LLM_PROVIDER).toBe(provider);
    return path;
  }
  const leftovers = (configPath: string) => readdirSync(dirname(configPath)).filter((name) => name.startsWith("wrangler.deploy"));

  it("the repository's wrangler.toml binds no Workers AI and names no model (npm start and the tests stay offline)", () => {
    expect(hasAiBinding(WRANGLER_TOML)).toBe(false);
    expect(readDeployConfig(WRANGLER_TOML).vars.LLM_PROVIDER).toBeUndefined();
    expect(LLM_PROVIDER.default).toBe("extractive");
  });

  it("by default: Workers AI's default model, bound by a config beside wrangler.toml that adds [ai], removed afterwards; wrangler.toml keeps none", async () => {
    const fake = new FakeWrangler();
    const configPath = configCopy();
    const logs: string[] = [];
    const result = await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), configPath, env: {} });

    expect(result).toMatchObject({ llm: { provider: "workers-ai", source: "default", model: "@cf/zai-org/glm-4.7-flash", aiBinding: true } });
    const [deployed] = fake.deploys;
    expect(deployed!.argv.slice(0, 7)).toEqual([
      "deploy",
      "--var",
      "ENVIRONMENT:production",
      "--config",
      aiConfigPath(configPath),
      "--var",
      "LLM_PROVIDER:workers-ai",
    ]);
    // The config beside wrangler.toml (so main, assets and migrations resolve alike) is wrangler.toml as the deploy left it, plus the binding.
    expect(dirname(deployed!.configPath!)).toBe(dirname(configPath));
    const written = readFileSync(configPath, "utf8");
    expect(deployed!.config!.startsWith(written.replace(/\n*$/, ""))).toBe(true);
    expect(deployed!.config!.slice(written.replace(/\n*$/, "").length)).toMatch(/^\n\n# Added by `npm run deploy`.*\n.*\n\[ai\]\nbinding = "AI"\n$/);
    expect(hasAiBinding(written)).toBe(false);
    expect(leftovers(configPath)).toEqual([]);

    // Said before the deploy, with how to choose another or none; and in the last words of the deploy.
    const notice = logs.find((line) => line.startsWith("model: "));
    expect(notice).toMatch(/^model: LLM_PROVIDER=workers-ai \(.*name none.*\): briefs are written by Workers AI's @cf\/zai-org\/glm-4\.7-flash/);
    expect(notice).toMatch(/--llm openai\|anthropic .*LLM_PROVIDER in wrangler\.toml's \[vars\].*--llm none/);
    expect(logs.indexOf(notice!)).toBeLessThan(logs.findIndex((line) => line.startsWith("wrangler deploy")));
    expect(logs.find((line) => line.startsWith("deployed with"))).toMatch(/LLM_PROVIDER=workers-ai \(@cf\/zai-org\/glm-4\.7-flash\)/);
  });

  it("the default model is the one src/research/providers/llm/defaults.ts names; LLM_MODEL chooses another", async () => {
    expect(WORKERS_AI_DEFAULT_MODEL).toBe(DEFAULT_MODELS["workers-ai"]);
    const fake = new FakeWrangler();
    const result = await deploy({
      run: fake.run,
      prompt: noPrompt,
      log: () => {},
      args: ["--var", "LLM_MODEL:@cf/meta/llama-4-scout-17b-16e-instruct"],
      configPath: configCopy(),
      env: {},
    });
    expect(result).toMatchObject({ llm: { provider: "workers-ai", model: "@cf/meta/llama-4-scout-17b-16e-instruct" } });
  });

  it("keeps the operator's choice: wrangler.toml's LLM_PROVIDER (extractive too), --var LLM_PROVIDER, --llm; only Workers AI is bound", async () => {
    const cases: { name: string; args?: string[]; configPath: () => string; provider: string; source: string; binds: boolean; secrets?: string[] }[] = [
      { name: "wrangler.toml extractive", configPath: () => configWith("extractive"), provider: "extractive", source: "wrangler.toml's [vars]", binds: false },
      { name: "wrangler.toml openai", configPath: () => configWith("openai"), provider: "openai", source: "wrangler.toml's [vars]", binds: false },
      { name: "wrangler.toml workers-ai", configPath: () => configWith("workers-ai"), provider: "workers-ai", source: "wrangler.toml's [vars]", binds: true },
      {
        name: "--var anthropic",
        args: ["--var", "LLM_PROVIDER:anthropic"],
        configPath: configCopy,
        provider: "anthropic",
        source: "the command line",
        binds: false,
        secrets: ["ANTHROPIC_API_KEY"],
      },
      { name: "--llm none", args: ["--llm", "none"], configPath: configCopy, provider: "extractive", source: "the command line", binds: false },
      {
        name: "--llm=openai over wrangler.toml",
        args: ["--llm=openai"],
        configPath: () => configWith("workers-ai"),
        provider: "openai",
        source: "the command line",
        binds: false,
      },
      {
        name: "--llm workers-ai",
        args: ["--llm", "workers-ai"],
        configPath: () => configWith("extractive"),
        provider: "workers-ai",
        source: "the command line",
        binds: true,
      },
    ];
    for (const each of cases) {
      const fake = new FakeWrangler();
      fake.workerExists = true;
      fake.secrets.set("JWT_SECRET", "kept");
      for (const secret of each.secrets ?? []) fake.secrets.set(secret, "key");
      const configPath = each.configPath();
      const logs: string[] = [];
      const result = await deploy({ run: fake.run, prompt: noPrompt, log: (line) => logs.push(line), args: each.args ?? [], configPath, env: {} });
      expect(result, each.name).toMatchObject({ llm: { provider: each.provider, source: each.source, aiBinding: each.binds } });
      const [deployed] = fake.deploys;
      // Nobody's choice is overridden: the deploy adds no LLM_PROVIDER of its own; a flag's goes as given (--llm as --var).
      const providerVars = deployed!.argv.filter((arg) => arg.startsWith("LLM_PROVIDER:"));
      expect(providerVars, each.name).toEqual(each.source === "the command line" ? [`LLM_PROVIDER:${each.provider}`] : []);
      expect(deployed!.configPath, each.name).toBe(each.binds ? aiConfigPath(configPath) : null);
      if (each.binds) expect(hasAiBinding(deployed!.config!), each.name).toBe(true);
      expect(leftovers(configPath), each.name).toEqual([]);
      expect(
        logs.find((line) => line.startsWith("model: ")),
        each.name,
      ).toContain(each.provider === "extractive" ? "model: none, LLM_PROVIDER=extractive" : `LLM_PROVIDER=${each.provider}`);
    }
  });

  it("a wrangler.toml that binds Workers AI itself is deployed as it is", async () => {
    const fake = new FakeWrangler();
    const configPath = configCopy();
    writeFileSync(configPath, `${WRANGLER_TOML}\n[ai]\nbinding = "AI"\n`);
    const result = await deploy({ run: fake.run, prompt: noPrompt, log: () => {}, configPath, env: {} });
    expect(result).toMatchObject({ llm: { provider: "workers-ai", source: "default" } });
    expect(fake.deploys[0]!.configPath).toBeNull();
    expect(fake.deploys[0]!.argv).toContain("LLM_PROVIDER:workers-ai");
  });

  it("refuses a provider the Worker would refuse, before touching anything; --llm needs a name", async () => {
    for (const args of [
      ["--llm", "gpt"],
      ["--var", "LLM_PROVIDER:none"],
    ]) {
      const fake = new FakeWrangler();
      const configPath = configCopy();
      await expect(deploy({ run: fake.run, prompt: noPrompt, log: () => {}, args, configPath, env: {} })).rejects.toThrow(
        expect.objectContaining({
          name: "DeployError",
          message: expect.stringMatching(/is not a model provider: extractive, openai, anthropic or workers-ai/),
        }),
      );
      expect(fake.calls).toEqual([]);
      expect(readFileSync(configPath, "utf8")).toBe(WRANGLER_TOML);
    }
    expect(() => parseArgs(["--llm"])).toThrow(/--llm needs a provider/);
    expect(parseArgs(["--llm", "none", "--no-prompt"]).deployArgs).toEqual(["--var", "LLM_PROVIDER:extractive"]);
  });

  it("knows the model providers src/env.ts has", () => {
    expect(LLM_PROVIDERS).toEqual(Object.keys(LLM_PROVIDER.requires));
  });

  it("README's Workers AI cost per job is the default model's price applied to each mode's tokens", () => {
    // https://developers.cloudflare.com/workers-ai/models/glm-4.7-flash/ ($0.06 / $0.40 per million tokens) and
    // https://developers.cloudflare.com/workers-ai/platform/pricing/ ($0.011 per 1,000 neurons, 10,000 a day free), checked 2026-11-27.
    const [inputUsd, outputUsd, usdPerNeuron, freeNeurons] = [0.06 / 1e6, 0.4 / 1e6, 0.011 / 1000, 10_000];
    const readme = readFileSync("README.md", "utf8");
    const section = readme.slice(readme.indexOf("### What Workers AI costs per job"));
    expect(section).toContain("$0.06 per million input tokens and $0.40 per million");
    expect(section).toContain("$0.011 per 1,000\nneurons");
    const rows = [...section.matchAll(/^\| (lite|standard|pro|max) \| ([\d,]+) \/ ([\d,]+) \| (\d+) \| \$([\d.]+) \| (\d+) \|$/gm)];
    expect(rows.map((row) => row[1])).toEqual(["lite", "standard", "pro", "max"]);
    for (const [, mode, tokensIn, tokensOut, neurons, usd, freeJobs] of rows) {
      const cost = Number(tokensIn!.replaceAll(",", "")) * inputUsd + Number(tokensOut!.replaceAll(",", "")) * outputUsd;
      expect(Number(neurons), mode).toBe(Math.round(cost / usdPerNeuron));
      expect(usd, mode).toBe(cost.toFixed(4));
      expect(Number(freeJobs), mode).toBe(Math.floor(freeNeurons / (cost / usdPerNeuron)));
      // The same tokens as the estimate of what a job costs with a model.
      expect(readme.slice(0, readme.indexOf("### What Workers AI costs per job")), mode).toMatch(
        new RegExp(`^\\| ${mode} \\| .*\\| ${tokensIn} / ${tokensOut} \\|`, "m"),
      );
    }
  });
});

// A real bundle: about 10 s on a quiet machine, over 60 s on a loaded one (issue 38). The timeout
// guards against a hang, not speed.
describe("npm run deploy -- --dry-run: a real wrangler bundle, offline", { timeout: 300_000 }, () => {
  it("bundles under the Workers Free plan's compressed size limit (3 MB) and the 64 MiB uncompressed one", async () => {
    const logs: string[] = [];
    const outputs: string[] = [];
    const run = async (argv: string[], options?: RunOptions) => {
      const result = await realRun(argv, { ...options, capture: true });
      outputs.push(`${result.stdout}\n${result.stderr}`);
      return result;
    };
    const result = await deploy({ run, args: ["--dry-run"], log: (line) => logs.push(line) });
    if (!("dryRun" in result)) throw new Error("not a dry run");
    expect(result.modules).toContain("index.js");
    // The bundle a deploy ships binds Workers AI and names the model provider, from a config removed afterwards.
    expect(logs[0]).toMatch(/^model: LLM_PROVIDER=workers-ai/);
    expect(outputs.join("\n")).toMatch(/^env\.AI\s+AI\s*$/m);
    expect(outputs.join("\n")).toMatch(/^env\.LLM_PROVIDER \(/m);
    expect(readdirSync(".").filter((name) => name.startsWith("wrangler.deploy."))).toEqual([]);
    const line = `Worker bundle: ${(result.bytes / 1024).toFixed(0)} KiB, gzip ${(result.gzipBytes / 1024).toFixed(0)} KiB (compressed limit ${FREE_PLAN_COMPRESSED_LIMIT_BYTES / 1024} KiB)\n`;
    process.stdout.write(line);
    expect(result.gzipBytes, line).toBeLessThan(FREE_PLAN_COMPRESSED_LIMIT_BYTES);
    expect(result.bytes, line).toBeLessThan(UNCOMPRESSED_LIMIT_BYTES);
    expect(logs.at(-1)).toMatch(/gzipped/);
  });
});
