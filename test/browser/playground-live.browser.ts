import { expect, type Page, test } from "@playwright/test";
import { startFixture } from "../../bench/fixture";
import { type StartedServer, startServer } from "../e2e/server";

/**
 * The playground while a job runs. Offline corpus jobs finish in about a second, too fast to
 * reload or cancel mid-way, so this file serves the app searching "the web" of a local fixture
 * (SearXNG API and pages on 127.0.0.1) that answers every search and page after 1.2 s.
 */
let fixture: Awaited<ReturnType<typeof startFixture>>;
let server: StartedServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fixture = await startFixture({ latencyMs: 1200, p99Ms: 1200 });
  server = await startServer({ vars: { RATE_LIMIT_SCALE: 1000, SEARCH_PROVIDER: "searxng", SEARXNG_URL: fixture.baseUrl } });
});

test.afterAll(async () => {
  await server?.stop();
  await fixture?.close();
});

async function signUpAndStart(page: Page, question: string) {
  await page.goto(`${server.baseUrl}/signup`);
  await page.getByLabel("Email").fill(`live-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("live progress password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
  await page.getByLabel("Question").fill(question);
  await page.getByRole("button", { name: "Run research" }).click();
}

const progress = (page: Page) => page.getByRole("region", { name: "Progress" });

test("live progress, and a reload mid-job resumes the stream to the result", async ({ page }) => {
  await signUpAndStart(page, "What changed in tariff policy?");
  await expect(progress(page).getByRole("status")).toContainText(/Searching|Reading pages/);
  const pagesRead = page.getByRole("list", { name: "Pages read" }).getByRole("listitem");
  await expect(pagesRead.first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("progressbar", { name: "Cost so far against the cap" })).toBeVisible();
  await expect(progress(page)).toContainText("of $0.600");
  await page.screenshot({ path: "test-results/screens/playground-live.png", fullPage: true });
  const before = await pagesRead.count();

  await page.reload();
  // The stream replays the job's events: the pages read so far are back (once each), and it goes on to the end.
  await expect(pagesRead).not.toHaveCount(0);
  expect(await pagesRead.count()).toBeGreaterThanOrEqual(before);
  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel("Outcome").getByRole("definition").first()).toHaveText("succeeded");
  await expect(page.getByRole("region", { name: "Brief" }).getByRole("button", { name: /^Source 1:/ }).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/playground-resumed-result.png", fullPage: true });
});

test("cancel while running: the job stops, charged only for the work done", async ({ page }) => {
  await signUpAndStart(page, "What changed in railroad policy?");
  await expect(progress(page).getByRole("status")).toContainText(/Searching|Reading pages/);
  await page.getByRole("button", { name: "Cancel the job" }).click();
  const outcome = page.getByLabel("Outcome");
  await expect(outcome.getByRole("definition").first()).toHaveText("cancelled", { timeout: 15_000 });
  const charged = Number(await outcome.getByRole("definition").nth(1).textContent());
  expect(charged).toBeLessThan(60);
  await expect(page.getByRole("button", { name: "Cancel the job" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/playground-cancelled.png", fullPage: true });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("definition").first()).toHaveText(String(500 - charged));
});
