import { expect, test } from "@playwright/test";
import { runSnippet } from "./run-snippet";

const base = () => process.env.DASHBOARD_BASE_URL!;

test("a new account's first step: create a key (shown once), then a quick start with that key filled in, whose curl command works as copied", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`first-step-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("first step password");
  await page.getByRole("button", { name: "Sign up" }).click();

  // No key and no job yet: the overview opens on the first step.
  const firstStep = page.getByRole("region", { name: "Your first step: an API key" });
  await expect(firstStep).toBeVisible();
  await expect(page.getByRole("definition").first()).toHaveText("500"); // the balance is still the first figure
  await page.screenshot({ path: "test-results/screens/first-step.png", fullPage: true });
  await firstStep.getByRole("button", { name: "Create your first key" }).click();

  const shown = firstStep.getByRole("region", { name: "New key" });
  await expect(shown).toContainText("shown only once");
  const key = (await shown.getByLabel("Key").textContent())!;
  expect(key).toMatch(/^dr_live_/);

  // The quick start: every snippet carries the key (or reads it from where the shell snippets put it) and this origin.
  const tabs = firstStep.getByRole("tablist", { name: "Quick start" });
  const panel = firstStep.getByRole("tabpanel");
  await expect(panel).toContainText(`export DEEP_RESEARCH_API_KEY='${key}'`);
  await expect(panel).toContainText(`curl -sS '${base()}/v1/research'`);
  await page.screenshot({ path: "test-results/screens/first-step-quick-start.png", fullPage: true });
  await panel.getByRole("button", { name: "Copy curl" }).click();
  await expect(panel.getByRole("button", { name: "Copied curl" })).toBeVisible();
  const curl = (await page.evaluate("navigator.clipboard.readText()")) as string;
  expect(curl).toContain(key);

  await tabs.getByRole("tab", { name: "TypeScript (SDK)" }).click();
  await expect(panel).toContainText('import { DeepResearch } from "deep-research";');
  await expect(panel).toContainText(`new DeepResearch({ apiKey: process.env.DEEP_RESEARCH_API_KEY!, baseUrl: "${base()}" })`);
  await tabs.getByRole("tab", { name: "Python (SDK)" }).click();
  await expect(panel).toContainText("from deep_research import DeepResearch");
  await expect(panel).toContainText(`client = DeepResearch(base_url="${base()}")`);
  await expect(panel).toContainText('result = client.research.run( "How did presidents describe tariffs in the 19th century?", mode="lite", )'); // whitespace collapsed
  await tabs.getByRole("tab", { name: "CLI" }).click();
  await expect(panel).toContainText(`export DEEP_RESEARCH_BASE_URL='${base()}'`);
  await expect(panel).toContainText("npx deep-research 'How did presidents describe tariffs in the 19th century?' --mode lite");
  await tabs.getByRole("tab", { name: "MCP config" }).click();
  const mcp = JSON.parse((await panel.locator("pre").textContent())!) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
  expect(mcp.mcpServers["deep-research"]).toEqual({ url: `${base()}/mcp`, headers: { Authorization: `Bearer ${key}` } });
  await page.screenshot({ path: "test-results/screens/first-step-mcp.png", fullPage: true });

  // The copied curl command runs as it is: a lite job answers with its result.
  const run = await runSnippet("bash", ["-c", curl], { env: { PATH: process.env.PATH } });
  expect(run.status, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout) as { status: string; credits_charged: number };
  expect(result).toMatchObject({ status: "succeeded", credits_charged: 15 });

  // Done: the card goes, and the key is never shown again; an account with a key gets no first step.
  await firstStep.getByRole("button", { name: "Done: I have copied my key" }).click();
  await expect(firstStep).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Recent jobs" })).toBeVisible();
  await expect(firstStep).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
});
