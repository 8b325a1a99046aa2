import { expect, test } from "@playwright/test";
import { finishedJob, signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;
const FIRST = "What did Lincoln say about emancipation?";
const FOLLOW_UP = "When did the Emancipation Proclamation take effect?";

test("follow-up: ask one on a finished job; the new job's page shows the thread and a cited brief", async ({ page }) => {
  const account = await signedIn(page, base(), "follow-up");
  const first = await finishedJob(base(), account, { question: FIRST, mode: "standard", include_sources: true });
  expect(first.status).toBe("succeeded");

  await page.goto(`${base()}/jobs/${first.id}`);
  const form = page.getByRole("form", { name: "Ask a follow-up" });
  await expect(form).toBeVisible();
  // A first job follows none: no thread on its page.
  await expect(page.getByRole("navigation", { name: "Thread" })).toHaveCount(0);
  await form.getByLabel("Follow-up question").fill(FOLLOW_UP);
  // The quote says what the follow-up costs and why, before it runs.
  await expect(form.getByRole("status")).not.toBeEmpty();
  await page.screenshot({ path: "test-results/screens/follow-up-form.png", fullPage: true });
  await form.getByRole("button", { name: "Ask the follow-up" }).click();

  await expect(page).not.toHaveURL(new RegExp(`/jobs/${first.id}$`));
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  const followUpId = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(FOLLOW_UP);
  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole("definition").first()).toHaveText("succeeded");

  // The thread: the first job (a link to its page), then this one.
  const thread = page.getByRole("navigation", { name: "Thread" });
  await expect(thread.getByRole("link", { name: "First question" })).toHaveAttribute("href", `/jobs/${first.id}`);
  await expect(thread.getByRole("listitem")).toHaveCount(2);
  await expect(thread.getByRole("listitem").last()).toContainText(followUpId);

  // Its brief cites sources, in one numbering with the first job's.
  await expect(
    page
      .getByRole("region", { name: "Brief" })
      .getByRole("button", { name: /^Source 1:/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Sources" })).not.toBeEmpty();
  await page.screenshot({ path: "test-results/screens/follow-up-job.png", fullPage: true });

  // The thread's link leads back to the first job.
  await thread.getByRole("link", { name: "First question" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(FIRST);
});
