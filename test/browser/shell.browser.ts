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

test("at 375 px the navigation folds behind a Menu button and the header stays on one line", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(email());
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  const menu = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "API keys" })).toBeHidden();
  // One line: the header is no taller than its Menu button plus its padding.
  const [header, button] = [await page.locator("header").boundingBox(), await menu.boundingBox()];
  expect(header!.height).toBeLessThan(button!.height * 2);
  expect((await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screens/menu-375-folded.png" });

  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/menu-375-open.png" });
  await nav.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false"); // following a link folds it
  await expect(nav.getByRole("link", { name: "Overview" })).toBeHidden();

  // Wide again: every link shows, no Menu button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole("link", { name: "Overview" })).toBeVisible();
});
