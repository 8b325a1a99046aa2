import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;

test("the dashboard opens at / from the same worker, and reaches the API it is typed against", async ({ page }) => {
  await page.goto(`${base()}/`);
  await expect(page.getByRole("heading", { name: "Deep Research" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("The service is up.");
  await page.screenshot({ path: "test-results/screens/home.png", fullPage: true });
});
