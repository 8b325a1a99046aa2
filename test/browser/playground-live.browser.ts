import { expect, type Page, test } from "@playwright/test";

/**
 * The playground while a job runs. Offline corpus jobs finish in about a second, too fast to
 * reload or cancel mid-way, so this file uses the second service of the global setup: it searches
 * "the web" of a local fixture (SearXNG API and pages on 127.0.0.1) that answers every search and
 * page after 1.2 s. What the tests look at mid-job is kept mid-job by state, not by time: the
 * fixture holds page reads (after the first few) until the test releases them, so a loaded
 * machine that renders slowly cannot see the job finish first.
 */
const base = () => process.env.DASHBOARD_LIVE_URL!;
const fixtureControl = (action: string) => fetch(`${process.env.LIVE_FIXTURE_URL}/control/${action}`, { method: "POST" });

test.afterEach(async () => {
  await fixtureControl("release");
});

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // It boots while the other files run; wait until it answers.
  for (const deadline = Date.now() + 280_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
    if ((await fetch(`${base()}/healthz`).catch(() => null))?.ok) return;
  }
  throw new Error(`the live-progress service at ${base()} never answered /healthz`);
});

async function signUpAndStart(page: Page, question: string) {
  await page.goto(`${base()}/signup`);
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
  // Two pages are read, then reads wait: the job stays running until the test has looked.
  await fixtureControl("hold?after=2");
  await signUpAndStart(page, "What changed in tariff policy?");
  await expect(progress(page).getByRole("status")).toContainText(/Searching|Reading pages/);
  const pagesRead = page.getByRole("list", { name: "Pages read" }).getByRole("listitem");
  await expect(pagesRead.first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("progressbar", { name: "Work so far against the reservation" })).toBeVisible();
  await expect(progress(page)).toContainText("of 60 reserved");
  // Pages asked for and pages read are two figures, named apart (reads are listed once a wave's are in).
  await expect(progress(page).getByRole("term")).toHaveText(["Searches", "Pages requested", "Work so far"]);
  await expect(progress(page).getByRole("heading", { name: "Pages read" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/playground-live.png", fullPage: true });
  const before = await pagesRead.count();

  await page.reload();
  // The form is as it was (not emptied), and the stream replays the job's events: the pages read so
  // far are back (once each), and it goes on to the end.
  await expect(page.getByLabel("Question")).toHaveValue("What changed in tariff policy?");
  await expect(page.getByLabel("Mode")).toHaveValue("standard");
  // The replay renders one event at a time: wait until it has caught up (the fixture holds the
  // reads after two, so the count stops there), rather than reading it once as soon as one shows.
  await expect(pagesRead).not.toHaveCount(0);
  await expect.poll(() => pagesRead.count()).toBeGreaterThanOrEqual(before);
  await fixtureControl("release");
  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel("Outcome").getByRole("definition").first()).toHaveText("succeeded");
  await expect(
    page
      .getByRole("region", { name: "Brief" })
      .getByRole("button", { name: /^Source 1:/ })
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/screens/playground-resumed-result.png", fullPage: true });
});

test("cancel while running: the job stops, charged only for the work done", async ({ page }) => {
  await fixtureControl("hold?after=0");
  await signUpAndStart(page, "What changed in railroad policy?");
  await expect(progress(page).getByRole("status")).toContainText(/Searching|Reading pages/);
  await page.getByRole("button", { name: "Cancel the job" }).click();
  const outcome = page.getByLabel("Outcome");
  await expect(outcome.getByRole("definition").first()).toHaveText("cancelled", { timeout: 15_000 });
  const charged = Number.parseInt((await outcome.getByRole("definition").nth(1).textContent())!, 10); // "3 credits ($0.03)"
  expect(charged).toBeLessThan(60);
  await expect(page.getByRole("button", { name: "Cancel the job" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/playground-cancelled.png", fullPage: true });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("definition").first()).toHaveText(String(500 - charged));
});
