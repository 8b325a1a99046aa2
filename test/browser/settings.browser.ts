import { expect, type Page, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;
const newEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function signUp(page: Page, email: string, password: string) {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible(); // signed in before navigating away
}

/** GET /api/auth/me as the user, through a login of its own (the browser's tokens stay in the browser). */
async function meThroughApi(email: string, password: string) {
  const login = await fetch(`${base()}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  return (await (await fetch(`${base()}/api/auth/me`, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as {
    first_name: string;
    last_name: string;
    marketing_emails_enabled: boolean;
  };
}

test("settings: profile saved, password changed only with the right current one, marketing choice kept", async ({ page }) => {
  const email = newEmail("settings");
  await signUp(page, email, "browser password 1");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  const account = page.getByRole("region", { name: "Account" });
  await expect(account).toContainText(email);
  await expect(account).toContainText("Not verified yet");

  // Profile: saved, and shown again after a reload.
  const profile = page.getByRole("form", { name: "Profile" });
  await profile.getByLabel("First name").fill("Ada");
  await profile.getByLabel("Last name").fill("Lovelace");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByRole("status")).toHaveText("Your profile is saved.");
  await page.reload();
  await expect(profile.getByLabel("First name")).toHaveValue("Ada");
  await expect(profile.getByLabel("Last name")).toHaveValue("Lovelace");

  // Marketing emails: saved on change, kept across a reload (the page reads GET /api/auth/me).
  const marketing = page.getByLabel("Send me product news and offers");
  await expect(marketing).not.toBeChecked();
  await marketing.check();
  await expect(page.getByRole("region", { name: "Emails" }).getByRole("status")).toHaveText("Saved: you will receive product news and offers.");
  await page.reload();
  await expect(marketing).toBeChecked();
  const me = await meThroughApi(email, "browser password 1");
  expect(me).toMatchObject({ first_name: "Ada", last_name: "Lovelace", marketing_emails_enabled: true });

  // Password: a wrong current password is refused plainly; the right one changes it.
  const password = page.getByRole("form", { name: "Change password" });
  await password.getByLabel("Current password").fill("not my password");
  await password.getByLabel("New password").fill("browser password 2");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByRole("alert")).toHaveText("Your current password is not right. Nothing was changed.");
  await page.screenshot({ path: "test-results/screens/settings-wrong-password.png", fullPage: true });
  await password.getByLabel("Current password").fill("browser password 1");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByRole("status")).toContainText("Your password is changed.");
  await expect(password.getByRole("alert")).toHaveCount(0);
  await expect(password.getByLabel("Current password")).toHaveValue("");
  await page.screenshot({ path: "test-results/screens/settings.png", fullPage: true });

  // The new password logs in (and the old one no longer does).
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByLabel("Password").fill("browser password 2");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
});

test("webhook signing secret: masked, revealed, copied, rotated after a warning", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  await signUp(page, newEmail("webhook"), "browser password 1");
  await page.goto(`${base()}/settings`);
  const section = page.getByRole("region", { name: "Webhook signing secret" });
  const secret = section.getByLabel("Webhook signing secret", { exact: true });
  await expect(secret).toBeVisible();
  await expect(secret).not.toContainText("whsec_"); // masked until revealed
  await section.getByRole("button", { name: "Reveal" }).click();
  await expect(secret).toHaveText(/^whsec_\S+$/);
  const first = (await secret.textContent())!;
  await section.getByRole("button", { name: "Copy" }).click();
  await expect(section.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe(first); // a string: it runs in the browser
  await section.getByRole("button", { name: "Hide" }).click();
  await expect(secret).not.toContainText("whsec_");
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/settings-webhook-masked.png" });

  // Rotating warns that the old secret stops verifying at once; dismissing it changes nothing.
  await section.getByRole("button", { name: "Rotate" }).click();
  const warning = page.getByRole("dialog", { name: "Rotate the webhook signing secret?" });
  await expect(warning).toContainText("stops verifying at once");
  await page.keyboard.press("Escape"); // Escape cancels, like the Cancel button
  await expect(warning).toHaveCount(0);
  await expect(section.getByRole("status")).toHaveCount(0);
  await section.getByRole("button", { name: "Rotate" }).click();
  await warning.getByRole("button", { name: "Rotate" }).click();
  await expect(section.getByRole("status")).toContainText("A new secret is in use");
  await expect(secret).toHaveText(/^whsec_\S+$/); // shown at once, to be copied to the receiver
  const second = (await secret.textContent())!;
  expect(second).not.toBe(first);
  await page.reload();
  await section.getByRole("button", { name: "Reveal" }).click();
  await expect(secret).toHaveText(second); // the rotation is the account's secret now
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/settings-webhook-rotated.png" });
});

test("settings with the keyboard: Tab goes from the header to the profile fields and their save button, in order", async ({ page }) => {
  await signUp(page, newEmail("keyboard"), "browser password 1");
  await page.goto(`${base()}/settings`);
  const profile = page.getByRole("form", { name: "Profile" });
  await expect(profile.getByLabel("First name")).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).focus(); // the last control of the header
  await page.keyboard.press("Tab");
  await expect(profile.getByLabel("First name")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(profile.getByLabel("Last name")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(profile.getByRole("button", { name: "Save profile" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(profile.getByRole("status")).toHaveText("Your profile is saved.");
});
