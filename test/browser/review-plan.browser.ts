import { expect, test } from "@playwright/test";
import { signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;
// One speaker's question: a question of several speakers ("What did presidents say …") reads each
// speaker's best page first, so the edited search's reads would not all be Eisenhower's.
const QUESTION = "What did William Taft say about the Panama Canal?";
// The edit: one search of another subject, so the pages the job read show which search ran. That
// the job searches exactly the edited queries is also proven at the HTTP level
// (test/research/plans.test.ts, where the search provider records what it receives).
const EDITED = "Eisenhower interstate highway system";

test("review plan: the plan shows editable before Run, and the edited plan is what runs", async ({ page }) => {
  await signedIn(page, base(), "review-plan");
  await page.goto(`${base()}/playground`);
  await page.getByLabel("Question").fill(QUESTION);
  await page.getByLabel("Mode").selectOption("lite");
  await page.getByRole("button", { name: "Review plan" }).click();

  const firstSearch = page.getByRole("textbox", { name: /^First searches \(at most 2\) 1$/ });
  await expect(firstSearch).toHaveValue(QUESTION);
  await expect(page.getByRole("button", { name: "Plan again" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/plan-review.png", fullPage: true });

  // Edit: one search of the edited subject, the others removed.
  await firstSearch.fill(EDITED);
  const removeSecond = page.getByRole("button", { name: /^Remove first searches \(at most 2\) 2$/ });
  while (await removeSecond.count()) await removeSecond.click();
  await expect(page.getByRole("textbox", { name: /^First searches/ })).toHaveCount(1);
  await page.screenshot({ path: "test-results/screens/plan-edited.png", fullPage: true });

  await page.getByRole("button", { name: "Run research" }).click();

  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole("definition").first()).toHaveText("succeeded");
  // A plan runs once: the review is set aside after Run.
  await expect(page.getByRole("button", { name: "Review plan" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/plan-ran.png", fullPage: true });

  // The jobs table marks the job as one that ran a reviewed plan.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs" }).click();
  const row = page.getByRole("row").filter({ hasText: QUESTION });
  await expect(row.getByTitle(/^Ran the reviewed plan [0-9a-f-]{36}$/)).toBeVisible();
  // The job's page: what it searched and read was the edited search's, not the Panama Canal's.
  await row.getByRole("link", { name: QUESTION }).click();
  const events = page.getByRole("list", { name: "Events" });
  await expect(events).toContainText("result: succeeded");
  // One search (the edited plan's only one), and every page read is an Eisenhower address.
  await expect(events).toContainText("done: wave 1, 1 searches");
  const reads = events.getByRole("listitem").filter({ hasText: / read / });
  expect(await reads.count()).toBeGreaterThan(0);
  await expect(reads.filter({ hasNotText: "Eisenhower" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/plan-job.png", fullPage: true });
});
