import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type BrowserContext, type Page, test } from "@playwright/test";
import { runSnippet } from "./run-snippet";
import { apiCall, signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;
// A single quote, which a naively quoted shell command would break on.
const QUESTION = "What did Lincoln's first annual message say about tariffs?";
const SCHEMA = '{"type": "object", "properties": {"year": {"type": ["integer", "null"]}}}';
const CLI = resolve("sdk/bin/deep-research.mjs");
// The Python SDK of this repository (`pip install deep-research` is the published one), run by Debian's Python, which has httpx.
const SDK_PYTHON = resolve("sdk-python");

/** A snippet as a shell runs it, with the key in the environment as the snippets expect it. */
function runShell(code: string, key: string) {
  const cwd = test.info().outputDir; // the CLI snippet writes schema.json there
  mkdirSync(cwd, { recursive: true });
  return runSnippet("bash", ["-c", code], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, DEEP_RESEARCH_API_KEY: key } });
}

/** The Python snippet as a script, with the key in the environment as it expects it. */
function runPython(code: string, key: string) {
  return runSnippet("/usr/bin/python3", ["-c", code], { env: { PATH: process.env.PATH, PYTHONPATH: SDK_PYTHON, DEEP_RESEARCH_API_KEY: key } });
}

/** A signed-in account on the playground (through the API: these tests are not about signing up). */
async function onPlayground(page: Page, prefix: string) {
  const account = await signedIn(page, base(), prefix);
  await page.goto(`${base()}/playground`);
  return account;
}

/**
 * The request the snippets must carry, built in the playground's form (a lite job on the corpus,
 * a typed output), with Get code open; the account's API key, which the snippets read from the
 * environment. Each snippet runs in its own test: they start real processes, which on a loaded
 * machine take tens of seconds each, and one test's budget is a hang guard, not a sum of them.
 */
async function requestBuilt(page: Page, context: BrowserContext, prefix: string) {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  const account = await onPlayground(page, prefix);
  const { plaintext: key } = await apiCall<{ plaintext: string }>(base(), account, "POST", "/api/keys", { name: "snippets" });
  await page.getByLabel("Question").fill(QUESTION);
  await page.getByLabel("Mode").selectOption("lite");
  await page.getByText("Sources and typed output").click();
  await page.getByLabel("Only these domains").fill("sotu.corpus");
  await page.getByLabel("JSON Schema of the typed output (optional)").fill(SCHEMA);
  await page.getByText("Get code").click();
  const code = page.locator("details.get-code");
  return { key, code, panel: code.getByRole("tabpanel") };
}

/** What a copy button put on the clipboard (read in the browser, where the page wrote it). */
async function copied(page: Page): Promise<string> {
  return (await page.evaluate("navigator.clipboard.readText()")) as string;
}

test("get code: the request being built as curl, following the form; copied, the service answers it with the finished lite job", async ({ page, context }) => {
  const { key, panel } = await requestBuilt(page, context, "code-curl");
  await expect(panel).toContainText(`"question": "What did Lincoln'\\''s first annual message say about tariffs?"`);
  await expect(panel).toContainText('"include_domains": [');
  // It follows the form as it changes.
  await page.getByLabel("Mode").selectOption("standard");
  await expect(panel).toContainText('"mode": "standard"');
  await page.getByLabel("Mode").selectOption("lite");
  await expect(panel).toContainText('"mode": "lite"');
  await page.screenshot({ path: "test-results/screens/playground-get-code.png", fullPage: true });

  await panel.getByRole("button", { name: "Copy curl" }).click();
  await expect(panel.getByRole("button", { name: "Copied curl" })).toBeVisible();
  const viaCurl = await runShell(await copied(page), key);
  expect(viaCurl.status, viaCurl.stderr).toBe(0);
  expect(JSON.parse(viaCurl.stdout)).toMatchObject({ status: "succeeded", question: QUESTION, credits_charged: 15 });
});

test("get code: the SDK snippets carry the request; the Python one, copied and run with this repository's SDK, prints the typed object", async ({
  page,
  context,
}) => {
  const { key, code, panel } = await requestBuilt(page, context, "code-python");
  await code.getByRole("tab", { name: "TypeScript (SDK)" }).click();
  await expect(panel).toContainText(`const result = await client.research(${JSON.stringify(QUESTION)}, {`);
  await expect(panel).toContainText('includeDomains: ["sotu.corpus"],');
  await expect(panel).toContainText("console.log(result.typed);");

  await code.getByRole("tab", { name: "Python (SDK)" }).click();
  await expect(panel).toContainText(`    ${JSON.stringify(QUESTION)},`);
  await expect(panel).toContainText('include_domains=["sotu.corpus"],');
  await panel.getByRole("button", { name: "Copy Python (SDK)" }).click();
  await expect(panel.getByRole("button", { name: "Copied Python (SDK)" })).toBeVisible();
  const python = await copied(page);
  expect(python).toContain('print(result["typed"])');
  const viaPython = await runPython(python, key);
  expect(viaPython.status, viaPython.stderr).toBe(0);
  expect(viaPython.stdout).toMatch(/^\{'year': (\d+|None)\}\n$/);
});

test("get code: the CLI command, copied and run with this repository's CLI, writes the schema and prints the typed object", async ({ page, context }) => {
  const { key, code, panel } = await requestBuilt(page, context, "code-cli");
  await code.getByRole("tab", { name: "CLI" }).click();
  await panel.getByRole("button", { name: "Copy CLI" }).click();
  await expect(panel.getByRole("button", { name: "Copied CLI" })).toBeVisible();
  const cli = await copied(page);
  expect(cli).toContain("--schema schema.json");
  // `npx deep-research` is the published CLI; this repository's is the one under test.
  const viaCli = await runShell(cli.replace("npx deep-research", `node ${CLI}`), key);
  expect(viaCli.status, viaCli.stderr).toBe(0);
  expect(JSON.parse(viaCli.stdout)).toHaveProperty("year"); // the typed object, as --schema prints it
  await page.screenshot({ path: "test-results/screens/playground-get-code-cli.png", fullPage: true });
});

test("a playground job says what it charged in credits and USD, names its metered work, and a reload keeps the form", async ({ page, context }) => {
  await onPlayground(page, "code-charged");
  await page.getByLabel("Question").fill(QUESTION);
  await page.getByLabel("Mode").selectOption("lite");
  await page.getByText("Sources and typed output").click();
  await page.getByLabel("Only these domains").fill("sotu.corpus");
  await page.getByRole("button", { name: "Run research" }).click();

  const outcome = page.getByLabel("Outcome");
  await expect(outcome.getByRole("definition").first()).toHaveText("succeeded", { timeout: 30_000 });
  await expect(outcome.getByRole("definition").nth(1)).toHaveText("15 credits ($0.15)");
  await expect(outcome.getByRole("term").nth(2)).toHaveText("Metered work");
  await expect(outcome.getByRole("definition").nth(2)).toHaveText(/^\d+(\.\d+)? credits$/);
  await expect(outcome).not.toContainText("$0.0"); // no fraction-of-a-cent dollar figure beside the charge
  // Why it cost that (charge_basis, issue 43): the rule's sentence with the figures.
  await expect(page.getByLabel("Why this charge")).toHaveText(/^Charged the lite price, 15 credits \(\$0\.15\): the brief cites \d+ sources? that address/);
  // A source of the shared corpus (corpus://…) has nothing a browser can open: its title, no link.
  const source1 = page.locator("#source-1");
  await expect(source1).toContainText(/State of the Union/);
  await expect(source1.getByRole("link")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/playground-charged.png", fullPage: true });

  // A reload finds the form as it was (the tab kept it), beside the replayed result.
  await page.reload();
  await expect(page.getByLabel("Outcome")).toBeVisible();
  await expect(page.getByLabel("Question")).toHaveValue(QUESTION);
  await expect(page.getByLabel("Mode")).toHaveValue("lite");
  await expect(page.getByLabel("Only these domains")).toHaveValue("sotu.corpus");
  await expect(page.getByLabel("Only these domains")).toBeVisible(); // the options it used are unfolded

  // Another tab has no saved form: the question comes from the job, the mode from the URL.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByLabel("Outcome")).toBeVisible();
  await expect(other.getByLabel("Question")).toHaveValue(QUESTION);
  await expect(other.getByLabel("Mode")).toHaveValue("lite");
});

test("the price before Run: what the request reserves, its envelope, and whether the balance covers it (a quote, nothing reserved)", async ({ page }) => {
  await onPlayground(page, "code-price");
  await page.getByLabel("Question").fill(QUESTION);
  await page.getByLabel("Mode").selectOption("standard");
  const price = page.getByRole("status", { name: "Price" });
  await expect(price).toContainText("Reserves 60 credits ($0.60)");
  await expect(price).toContainText("up to 2 waves, 12 searches, 20 pages, 180 s");
  await expect(price).toContainText("Your balance (500) covers it.");
  // It follows the form: a shorter wall clock is priced again.
  await page.getByLabel("Wall-clock limit (s)").fill("90");
  await expect(price).toContainText("90 s.");
  await page.screenshot({ path: "test-results/screens/playground-price.png" });
  // Asking reserved nothing.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("definition").first()).toContainText("500");
});
