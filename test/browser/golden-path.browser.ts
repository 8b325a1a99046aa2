import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;
const QUESTION = "What did Lincoln say about emancipation?";

// Live progress is playground-live.browser.ts's: a job on the demo corpus is done in about a
// tenth of a second (its searches and reads run in the job), before a progress line can paint.
test("golden path: sign up, create a key, run a playground job, read its cited brief, find it in the jobs and the usage chart", async ({ page }) => {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`golden-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("golden path password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText("No jobs yet.")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/overview-empty.png", fullPage: true });

  const main = page.getByRole("navigation", { name: "Main" });
  await main.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Key name").fill("golden");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("region", { name: "New key" })).toContainText("shown only once");
  await page.getByRole("button", { name: "Done" }).click();

  await main.getByRole("link", { name: "Playground" }).click();
  // More than the balance: refused with 402, and the page offers the billing page.
  await page.getByLabel("Question").fill(QUESTION);
  await page.getByLabel("Mode").selectOption("max");
  await page.getByLabel("Max credits").fill("100000");
  await page.getByRole("button", { name: "Run research" }).click();
  await expect(page.getByRole("alert")).toContainText("needs 100000 credits; the balance is 500");
  await expect(page.getByRole("alert").getByRole("link", { name: "Buy credits or choose a plan" })).toHaveAttribute("href", "/billing");
  await page.screenshot({ path: "test-results/screens/playground-402.png", fullPage: true });
  await page.getByLabel("Mode").selectOption("standard");

  await expect(page.getByLabel("Mode")).toHaveValue("standard");
  await expect(page.locator("#mode-help")).toContainText("60 credits");
  await page.screenshot({ path: "test-results/screens/playground-form.png", fullPage: true });
  await page.getByRole("button", { name: "Run research" }).click();

  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole("definition").first()).toHaveText("succeeded");
  await expect(page.getByLabel("Outcome").getByText("60", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Outcome")).toContainText("60 credits ($0.60)");
  expect(page.url()).toMatch(/\/playground\?job=[0-9a-f-]{36}/);

  // The short answer sits above the brief: the answer with a labelled confidence badge, or plainly none.
  const shortAnswer = page.getByRole("region", { name: "Short answer" });
  const answered = shortAnswer.getByText(/^(High|Medium|Low) confidence$/);
  const unanswered = shortAnswer.getByText(/^The sources read do not answer this question\./);
  await expect(answered.or(unanswered)).toBeVisible();
  const [answerBox, briefBox] = [await shortAnswer.boundingBox(), await page.getByRole("region", { name: "Brief" }).boundingBox()];
  expect(answerBox!.y + answerBox!.height).toBeLessThanOrEqual(briefBox!.y);

  // A citation highlights its source and shows the passage the claim rests on.
  const firstCitation = page
    .getByRole("region", { name: "Brief" })
    .getByRole("button", { name: /^Source 1:/ })
    .first();
  await firstCitation.click();
  const source1 = page.locator("#source-1");
  await expect(source1).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("list", { name: "Passages of source 1" }).getByRole("listitem").first()).not.toBeEmpty();
  await page.screenshot({ path: "test-results/screens/playground-result.png", fullPage: true });
  const jobId = new URL(page.url()).searchParams.get("job")!;

  // The job is in the jobs table, with its detail (events replayed, no webhook).
  await main.getByRole("link", { name: "Jobs" }).click();
  const row = page.getByRole("row").filter({ hasText: QUESTION });
  await expect(row).toContainText("succeeded");
  await page.getByLabel("Status").selectOption("failed");
  await expect(page.getByText("No failed jobs.")).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  // The toggle lives in the URL (a shared link keeps it), so its state follows a navigation: click, then wait for it.
  await page.getByLabel("Anonymize questions").click();
  await expect(page.getByLabel("Anonymize questions")).toBeChecked();
  await expect(page.getByRole("row").filter({ hasText: "[redacted]" })).toHaveCount(1);
  await page.getByLabel("Anonymize questions").click();
  await expect(page.getByLabel("Anonymize questions")).not.toBeChecked();
  await expect(page.getByRole("row").filter({ hasText: QUESTION })).toHaveCount(1);
  await page.screenshot({ path: "test-results/screens/jobs.png", fullPage: true });
  await page.getByRole("link", { name: QUESTION }).click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${jobId}$`));
  await expect(page.getByRole("list", { name: "Events" })).toContainText("result: succeeded");
  await expect(page.getByText("No webhook was set for this job.")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/job-detail.png", fullPage: true });

  // The overview: the balance after the charge, the job among the recent ones, today's 60 credits in the chart.
  await main.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("definition").first()).toHaveText("440");
  await expect(page.getByRole("table", { name: "Recent jobs" })).toContainText(QUESTION);
  const today = new Date().toISOString().slice(0, 10);
  await expect(page.getByRole("table", { name: /Credits used per day/ }).getByRole("row", { name: new RegExp(today) })).toContainText("60");
  await page.screenshot({ path: "test-results/screens/overview-after-job.png", fullPage: true });

  // At 375 px wide the result, the jobs table and the job's page still fit.
  await page.setViewportSize({ width: 375, height: 740 });
  for (const path of [`/playground?job=${jobId}&mode=standard&cap=0.6`, "/jobs", `/jobs/${jobId}`]) {
    await page.goto(`${base()}${path}`);
    await expect(page.getByRole("region", { name: "Result" }).or(page.getByRole("table", { name: "Your jobs" }))).toBeVisible();
    expect((await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screens/375${path.split("?")[0]!.replaceAll("/", "-").slice(0, 20)}.png`, fullPage: true });
  }
});
