import { expect, test } from "@playwright/test";
import { apiCall, signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

test("API keys: created with its plaintext shown once (and copied), the key works, revoked after a confirmation", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`keys-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("No keys yet")).toBeVisible();
  await page.getByLabel("Key name").fill("ci server");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByRole("region", { name: "New key" });
  await expect(shown).toContainText("shown only once");
  const plaintext = (await shown.getByLabel("Key").textContent())!;
  expect(plaintext).toMatch(/^dr_live_/);
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe(plaintext); // a string: it runs in the browser
  await page.screenshot({ path: "test-results/screens/keys-reveal.png", fullPage: true });
  // The key works on the public API; once dismissed it is never shown again.
  expect((await fetch(`${base()}/v1/credits`, { headers: { Authorization: `Bearer ${plaintext}` } })).status).toBe(200);
  await shown.getByRole("button", { name: "Done" }).click();
  await page.reload();
  await expect(page.getByRole("cell", { name: "ci server", exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(plaintext);
  // Revoking asks first, in the app's own dialog (the safe button focused); the key then stops working.
  await page.getByRole("button", { name: "Revoke ci server" }).click();
  const asked = page.getByRole("dialog", { name: 'Revoke "ci server"?' });
  await expect(asked.getByRole("button", { name: "Cancel" })).toBeFocused();
  await asked.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No keys yet")).toBeVisible();
  expect((await fetch(`${base()}/v1/credits`, { headers: { Authorization: `Bearer ${plaintext}` } })).status).toBe(401);
});

test("Reset says what it does before it is clicked: a new secret, and the old one stops working at once", async ({ page }) => {
  const account = await signedIn(page, base(), "reset");
  const old = await apiCall<{ plaintext: string }>(base(), account, "POST", "/api/keys", { name: "laptop" });
  await page.goto(`${base()}/keys`);
  const reset = page.getByRole("button", { name: "Reset laptop" });
  await expect(reset).toHaveAccessibleDescription(/Reset gives a key a new secret .* the old secret stops working at once/);
  await expect(page.getByText("Reset gives a key a new secret")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/keys-reset-explained.png", fullPage: true });
  await reset.click();
  const asked = page.getByRole("dialog", { name: 'Reset "laptop"?' });
  await expect(asked).toContainText("The current secret stops working at once");
  await asked.getByRole("button", { name: "Reset" }).click();
  const renewed = (await page.getByRole("region", { name: "New key" }).getByLabel("Key").textContent())!;
  expect((await fetch(`${base()}/v1/credits`, { headers: { Authorization: `Bearer ${old.plaintext}` } })).status).toBe(401);
  expect((await fetch(`${base()}/v1/credits`, { headers: { Authorization: `Bearer ${renewed}` } })).status).toBe(200);
});

test("a revoked key is no longer offered for copying", async ({ page }) => {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`revoke-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  // The list loaded first: a name typed while it loads is lost when the page renders its keys
  // (under load the key was created unnamed, and "Revoke short lived" never appeared).
  await expect(page.getByText("No keys yet")).toBeVisible();
  await page.getByLabel("Key name").fill("short lived");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("region", { name: "New key" })).toBeVisible();
  await page.getByRole("button", { name: "Revoke short lived" }).click();
  const asked = page.getByRole("dialog", { name: 'Revoke "short lived"?' });
  await page.screenshot({ path: "test-results/screens/keys-confirm-dialog.png" });
  await asked.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No keys yet")).toBeVisible();
  await expect(page.getByRole("region", { name: "New key" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/keys-after-revoke.png", fullPage: true });
});
