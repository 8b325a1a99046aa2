import { expect, test } from "@playwright/test";
import { signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;
const QUESTION = "What ended the Nullification Crisis?";
// The edit: one search, worded unlike the plan's own (which starts with the question itself).
// That the job searches exactly the edited queries is proven at the HTTP level (test/research/plans.test.ts,
// where the search provider records what it receives); here, that the page sends the edit and the job runs it.
const EDITED = "Compromise Tariff of 1833";

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
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: QUESTION })
      .getByTitle(/^Ran the reviewed plan [0-9a-f-]{36}$/),
  ).toBeVisible();
});
