import { expect, test } from "@playwright/test";
import { signedInAs } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

/**
 * Overage reports as GET /api/admin/overage-reports gives them (issue 41, item 7): a server without
 * Stripe makes none, so the admin API's answer is replaced by two rows of its documented shape, one
 * pending (its first send under way) and one failed (Stripe refused it; the sweep retries it).
 */
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const REPORTS = [
  {
    id: "5d0c2b8e-7f41-4a36-9b1e-3c8d2f6a9e14",
    user_id: "0b7f3c1e-2a4d-4e8f-9c6b-1d5e7a3f2c90",
    user_email: "ada@example.com",
    credits: 500,
    status: "pending",
    attempts: 0,
    in_doubt: false,
    error: null,
    created_at: minutesFromNow(-1),
    next_attempt_at: null,
    reported_at: null,
  },
  {
    id: "9a4e6c21-3b7d-4f58-8e02-6d1c5b9f7a33",
    user_id: "4c2e8a6f-1b3d-4f7e-a9c5-8e2d6b4f1a07",
    user_email: "grace@example.com",
    credits: 1250,
    status: "failed",
    attempts: 2,
    in_doubt: true,
    error: "StripeAPIError: An unknown error occurred",
    created_at: minutesFromNow(-20),
    next_attempt_at: minutesFromNow(9),
    reported_at: null,
  },
];

test("admin: the overage page lists the reports not yet billed, with status, attempts, last error and what happens next", async ({ page }) => {
  await signedInAs(page, base(), "admin@example.com", "browser admin password");
  const asked: string[] = [];
  await page.route("**/api/admin/overage-reports*", async (route) => {
    const url = new URL(route.request().url());
    asked.push(url.search);
    const response = await route.fetch(); // the real answer (its status and headers), with the rows replaced
    const status = url.searchParams.get("status");
    await route.fulfill({ response, json: REPORTS.filter((report) => !status || report.status === status) });
  });

  await page.goto(`${base()}/admin`);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Overage" }).click();
  await expect(page.getByRole("heading", { name: "Overage reports" })).toBeVisible();

  const rows = page.getByRole("table", { name: "Overage reports, newest first" }).getByRole("row");
  await expect(rows).toHaveCount(3); // the header and two reports
  const pending = rows.filter({ hasText: "ada@example.com" });
  await expect(pending).toContainText("pending");
  await expect(pending).toContainText("first send under way");
  await expect(pending.getByRole("cell").nth(2)).toHaveText("500");
  const failed = rows.filter({ hasText: "grace@example.com" });
  await expect(failed).toContainText("failed in doubt");
  await expect(failed).toContainText("StripeAPIError: An unknown error occurred");
  await expect(failed.getByRole("cell").nth(4)).toHaveText("2");
  await expect(failed).toContainText("next try ");
  await expect(page.getByLabel("What each status means")).toContainText("never sent and never retried");
  await page.screenshot({ path: "test-results/screens/admin-overage.png", fullPage: true });

  // Only the failed ones: the filter asks the API for that status.
  await page.getByRole("combobox", { name: "Status" }).selectOption("failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("grace@example.com");
  expect(asked.at(-1)).toContain("status=failed");
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
