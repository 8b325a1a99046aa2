import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;
const email = () => `browser-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

test("sign up, see the balance, keep the session across a reload, log out", async ({ page }) => {
  await page.goto(`${base()}/`);
  await expect(page).toHaveURL(/\/login$/); // not signed in: sent to log in
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Email").fill(email());
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  const balance = page.getByRole("definition").first();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(balance).toHaveText("500"); // the signup bonus
  await page.screenshot({ path: "test-results/screens/overview.png", fullPage: true });
  // The access token lives in memory: a reload resumes through the refresh token.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(balance).toHaveText("500");
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${base()}/`);
  await expect(page).toHaveURL(/\/login$/); // the session is over
});

test("a wrong password is said plainly", async ({ page }) => {
  await page.goto(`${base()}/login`);
  await page.getByLabel("Email").fill(email());
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert")).toContainText(/password/i);
  await page.screenshot({ path: "test-results/screens/login-error.png" });
});
