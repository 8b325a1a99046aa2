import { expect, type Page, test } from "@playwright/test";
import { signedIn } from "./session";

/**
 * At 375 px (a phone) the account's pages fit: nothing scrolls sideways, with their widest content
 * shown (a new key, a revealed secret, the packs and plans). One account visits them all, where
 * each page had its own test that signed up through the form first (issue 38: the same coverage
 * for a third of the browser's work). The navigation's own folding is shell.browser.ts's.
 */
const base = () => process.env.DASHBOARD_BASE_URL!;

async function expectNoSidewaysScroll(page: Page, screenshot: string) {
  const overflow = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
  expect(overflow, `${screenshot} scrolls sideways`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screens/${screenshot}`, fullPage: true });
}

test("at 375 px wide the keys, settings and billing pages fit", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signedIn(page, base(), "narrow");

  await page.goto(`${base()}/keys`);
  await page.getByLabel("Key name").fill("phone");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("region", { name: "New key" })).toBeVisible();
  await expectNoSidewaysScroll(page, "keys-375.png");

  await page.goto(`${base()}/settings`);
  const secret = page.getByRole("region", { name: "Webhook signing secret" });
  await secret.getByRole("button", { name: "Reveal" }).click();
  await expect(secret.getByLabel("Webhook signing secret", { exact: true })).toHaveText(/^whsec_/);
  await expectNoSidewaysScroll(page, "settings-375.png");

  await page.goto(`${base()}/billing`);
  await expect(page.getByRole("article", { name: "Warehouse" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Growth" })).toBeVisible();
  await expect(page.getByText("No payments yet")).toBeVisible();
  await page.getByRole("button", { name: "Buy Warehouse" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Payments are not set up" })).toBeVisible();
  await expectNoSidewaysScroll(page, "billing-375.png");
});
