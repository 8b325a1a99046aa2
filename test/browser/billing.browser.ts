import { expect, type Page, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;

async function signUp(page: Page, prefix: string) {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`);
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible(); // signed in before navigating away
}

test("billing without a processor: packs, plans with break-even, the current plan; buying says kindly that payments are not set up", async ({ page }) => {
  await signUp(page, "billing");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Billing" }).click();
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();

  // The four packs of the catalog, each with its price, credits and price per credit.
  const packs = page.getByRole("region", { name: "Credit packs" });
  for (const [name, price, credits] of [
    ["Starter", "$5", "500 credits"],
    ["Handful", "$20", "2,000 credits"],
    ["Workshop", "$50", "5,000 credits"],
    ["Warehouse", "$200", "20,000 credits"],
  ]) {
    const pack = packs.getByRole("article", { name: name! });
    await expect(pack).toContainText(price!);
    await expect(pack).toContainText(credits!);
    await expect(pack).toContainText("$0.01 per credit");
  }
  // Plans: monthly price, included credits, overage rate, break-even; a new account is on Free.
  const plans = page.getByRole("region", { name: "Monthly plans" });
  const developer = plans.getByRole("article", { name: "Developer" });
  await expect(developer).toContainText("$29 a month");
  await expect(developer).toContainText("4,000 credits included each month");
  await expect(developer).toContainText("$0.009 per extra credit");
  await expect(developer).toContainText("Saves money above 2,900 credits a month");
  await expect(plans.getByRole("article", { name: "Startup" })).toContainText("Saves money above 14,900 credits a month");
  await expect(plans.getByRole("article", { name: "Growth" })).toContainText("Saves money above 49,900 credits a month");
  const free = plans.getByRole("article", { name: "Free" });
  await expect(free).toContainText("Current plan");
  await expect(free.getByRole("button")).toHaveCount(0);
  await expect(free).not.toContainText("Saves money"); // no break-even for Free
  const account = page.getByRole("region", { name: "Your account" });
  await expect(account).toContainText("500 credits");
  await expect(account).toContainText("Free");
  // Payment history: none yet.
  await expect(page.getByRole("region", { name: "Payment history" })).toContainText("No payments yet");
  await page.screenshot({ path: "test-results/screens/billing.png", fullPage: true });

  // Buying a pack: the server has no processor (500 payment_processor_not_configured); the page says so kindly and stays.
  const checkout = page.waitForResponse((response) => response.url().endsWith("/api/billing/checkout"));
  await packs.getByRole("button", { name: "Buy Starter" }).click();
  const answer = await checkout;
  expect(answer.status()).toBe(500);
  expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("payment_processor_not_configured");
  const packNotice = packs.getByRole("status").filter({ hasText: "Payments are not set up on this server yet" });
  await expect(packNotice).toBeVisible();
  await expect(packNotice).toContainText("Your free credits still work");
  await expect(page).toHaveURL(`${base()}/billing`);
  await expect(page.getByRole("alert")).toHaveCount(0); // no raw error
  await expect(page.getByText(/request id/i)).toHaveCount(0);
  await packNotice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/billing-pack-not-configured.png" });

  // A plan and the portal likewise.
  await plans.getByRole("button", { name: "Subscribe to Developer" }).click();
  await expect(plans.getByRole("status").filter({ hasText: "Payments are not set up on this server yet" })).toBeVisible();
  await account.getByRole("button", { name: "Open the billing portal" }).click();
  await expect(account.getByRole("status").filter({ hasText: "no billing portal to open" })).toBeVisible();
  await expect(page).toHaveURL(`${base()}/billing`);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await account.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/billing-portal-not-configured.png" });
});

test("auto top-up: saved (PUT 200), said in words, and shown again after a reload", async ({ page }) => {
  await signUp(page, "topup");
  await page.goto(`${base()}/billing`);
  const form = page.getByRole("form", { name: "Auto top-up" });
  await expect(form.getByLabel("Top up automatically")).not.toBeChecked(); // never set: off
  // A new account has bought nothing: there is no card for a top-up to charge, and the page says so.
  await expect(page.getByRole("note", { name: "No card yet" })).toContainText("No card is saved yet");
  await form.getByLabel("Top up automatically").check();
  await form.getByLabel("When the balance falls below (credits)").fill("200");
  await form.getByLabel("Buy this pack").selectOption({ label: "Handful: 2,000 credits for $20" });
  const saved = page.waitForResponse((response) => response.url().endsWith("/api/billing/auto-topup") && response.request().method() === "PUT");
  await form.getByRole("button", { name: "Save auto top-up" }).click();
  expect((await saved).status()).toBe(200);
  await expect(form.getByRole("status")).toHaveText(
    "Saved, but there is no card to charge yet: nothing is bought until you buy a pack with a card. From then on, when your balance falls below 200 credits, the Handful pack (2,000 credits for $20) is bought with that card.",
  );
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/billing-auto-topup.png", fullPage: true });

  await page.reload();
  await expect(form.getByLabel("Top up automatically")).toBeChecked();
  await expect(form.getByLabel("When the balance falls below (credits)")).toHaveValue("200");
  await expect(form.getByLabel("Buy this pack")).toHaveValue("handful");
  // Turning it off is saved too.
  await form.getByLabel("Top up automatically").uncheck();
  await form.getByRole("button", { name: "Save auto top-up" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved: auto top-up is off.");

  // With a card on file (a pack bought; the processor is not set up locally, so the answer is made so).
  await page.route("**/api/billing/auto-topup", async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), card_on_file: true } });
  });
  await page.reload();
  await expect(page.getByRole("note", { name: "No card yet" })).toHaveCount(0);
  await form.getByLabel("Top up automatically").check();
  await form.getByRole("button", { name: "Save auto top-up" }).click();
  await expect(form.getByRole("status")).toHaveText(
    "Saved: when your balance falls below 200 credits, the Handful pack (2,000 credits for $20) is bought with the card saved at your last pack purchase.",
  );
});
test("back from the processor's checkout: a thank-you (or a cancelled note), never an error", async ({ page }) => {
  await signUp(page, "billing-return");
  await page.goto(`${base()}/billing?checkout=success&session_id=cs_test_1`);
  await expect(page.getByRole("status").filter({ hasText: "Thank you: your payment is being confirmed." })).toBeVisible();
  await page.goto(`${base()}/billing?checkout=cancelled`);
  await expect(page.getByRole("status").filter({ hasText: "The checkout was cancelled: nothing was charged." })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Starter" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your account" })).toContainText("Free");
  await page.screenshot({ path: "test-results/screens/billing-cancelled.png" });
});
