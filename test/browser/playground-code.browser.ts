import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;
// A single quote, which a naively quoted shell command would break on.
const QUESTION = "What did Lincoln's first annual message say about tariffs?";
const SCHEMA = '{"type": "object", "properties": {"year": {"type": ["integer", "null"]}}}';
const CLI = resolve("sdk/bin/deep-research.mjs");
// The Python SDK of this repository (`pip install deep-research` is the published one), run by Debian's Python, which has httpx.
const SDK_PYTHON = resolve("sdk-python");

/** A snippet as a shell runs it, with the key in the environment as the snippets expect it. */
function runShell(code: string, key: string) {
  const cwd = mkdirSync(test.info().outputDir, { recursive: true }) ?? test.info().outputDir; // the CLI snippet writes schema.json there
  return spawnSync("bash", ["-c", code], { encoding: "utf8", cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, DEEP_RESEARCH_API_KEY: key } });
}

/** The Python snippet as a script, with the key in the environment as it expects it. */
function runPython(code: string, key: string) {
  return spawnSync("/usr/bin/python3", ["-c", code], { encoding: "utf8", env: { PATH: process.env.PATH, PYTHONPATH: SDK_PYTHON, DEEP_RESEARCH_API_KEY: key } });
}

async function signUpWithKey(page: Page): Promise<string> {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`code-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("get code password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Key name").fill("snippets");
  await page.getByRole("button", { name: "Create key" }).click();
  return (await page.getByRole("region", { name: "New key" }).getByLabel("Key").textContent())!;
}

test("get code: the request being built as curl, the SDKs and CLI, copied and run as they are", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  const key = await signUpWithKey(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
  await page.getByLabel("Question").fill(QUESTION);
  await page.getByLabel("Mode").selectOption("lite");
  await page.getByText("Sources and typed output").click();
  await page.getByLabel("Only these domains").fill("sotu.corpus");
  await page.getByLabel("JSON Schema of the typed output (optional)").fill(SCHEMA);

  await page.getByText("Get code").click();
  const code = page.locator("details.get-code");
  const panel = code.getByRole("tabpanel");
  await expect(panel).toContainText(`"question": "What did Lincoln'\\''s first annual message say about tariffs?"`);
  await expect(panel).toContainText('"include_domains": [');
  // It follows the form as it changes.
  await page.getByLabel("Mode").selectOption("standard");
  await expect(panel).toContainText('"mode": "standard"');
  await page.getByLabel("Mode").selectOption("lite");
  await expect(panel).toContainText('"mode": "lite"');
  await page.screenshot({ path: "test-results/screens/playground-get-code.png", fullPage: true });

  // curl, copied: a valid command the service answers with the finished lite job.
  await panel.getByRole("button", { name: "Copy curl" }).click();
  await expect(panel.getByRole("button", { name: "Copied curl" })).toBeVisible();
  const curl = (await page.evaluate("navigator.clipboard.readText()")) as string;
  const viaCurl = runShell(curl, key);
  expect(viaCurl.status, viaCurl.stderr).toBe(0);
  expect(JSON.parse(viaCurl.stdout)).toMatchObject({ status: "succeeded", question: QUESTION, credits_charged: 15 });

  await code.getByRole("tab", { name: "TypeScript (SDK)" }).click();
  await expect(panel).toContainText(`const result = await client.research(${JSON.stringify(QUESTION)}, {`);
  await expect(panel).toContainText('includeDomains: ["sotu.corpus"],');
  await expect(panel).toContainText("console.log(result.typed);");

  // The Python snippet, copied, run with this repository's Python SDK: the typed object, printed.
  await code.getByRole("tab", { name: "Python (SDK)" }).click();
  await expect(panel).toContainText(`    ${JSON.stringify(QUESTION)},`);
  await expect(panel).toContainText('include_domains=["sotu.corpus"],');
  await panel.getByRole("button", { name: "Copy Python (SDK)" }).click();
  const python = (await page.evaluate("navigator.clipboard.readText()")) as string;
  expect(python).toContain('print(result["typed"])');
  const viaPython = runPython(python, key);
  expect(viaPython.status, viaPython.stderr).toBe(0);
  expect(viaPython.stdout).toMatch(/^\{'year': (\d+|None)\}\n$/);

  // The CLI command, copied, run by this repository's CLI (`npx deep-research` is the published one).
  await code.getByRole("tab", { name: "CLI" }).click();
  await panel.getByRole("button", { name: "Copy CLI" }).click();
  const cli = (await page.evaluate("navigator.clipboard.readText()")) as string;
  expect(cli).toContain("--schema schema.json");
  const viaCli = runShell(cli.replace("npx deep-research", `node ${CLI}`), key);
  expect(viaCli.status, viaCli.stderr).toBe(0);
  expect(JSON.parse(viaCli.stdout)).toHaveProperty("year"); // the typed object, as --schema prints it
  await page.screenshot({ path: "test-results/screens/playground-get-code-cli.png", fullPage: true });
});

test("a playground job says what it charged in credits and USD, names its metered work, and a reload keeps the form", async ({ page, context }) => {
  await signUpWithKey(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
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
  await signUpWithKey(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
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
