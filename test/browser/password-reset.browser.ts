import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${base()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as any;
}

/** The newest email to `to`, read the way an operator does (the outbox, as admin). */
async function latestEmail(to: string): Promise<string> {
  const admin =
    (await post("/api/auth/login", { email: "admin@example.com", password: "browser admin password" })).access_token ??
    (await post("/api/auth/signup", { email: "admin@example.com", password: "browser admin password" })).access_token;
  for (let attempt = 0; attempt < 50; attempt++) {
    const emails = (await (
      await fetch(`${base()}/api/admin/emails?to=${encodeURIComponent(to)}`, { headers: { Authorization: `Bearer ${admin}` } })
    ).json()) as { text: string }[];
    if (emails[0]) return emails[0].text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no email to ${to}`);
}

test("forgot password: the emailed link opens this dashboard's reset page, and the new password logs in", async ({ page }) => {
  const email = `reset-${Date.now()}@example.com`;
  await post("/api/auth/signup", { email, password: "the old password 1" });
  await page.goto(`${base()}/login`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("on its way");
  // The link points at this worker's own origin (DASHBOARD_URL unset: same origin).
  const link = /(http\S+\/reset-password\?token=\S+)/.exec(await latestEmail(email))?.[1];
  expect(link?.startsWith(`${base()}/reset-password?token=`)).toBe(true);
  await page.goto(link!);
  await page.getByLabel("New password", { exact: true }).fill("the new password 2");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is changed");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("the new password 2");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/after-reset.png" });
});

test("the emailed verification link opens the dashboard, confirms the address once, and a used link says why it failed", async ({ page }) => {
  const email = `verify-${Date.now()}@example.com`;
  await post("/api/auth/signup", { email, password: "a verify password 1" });
  const link = /(http\S+\/verify-email\?token=\S+)/.exec(await latestEmail(email))?.[1];
  expect(link?.startsWith(`${base()}/verify-email?token=`)).toBe(true);
  await page.goto(link!);
  await expect(page.getByRole("status")).toContainText("Your email address is verified.");
  await page.screenshot({ path: "test-results/screens/email-verified.png" });
  const login = await post("/api/auth/login", { email, password: "a verify password 1" });
  expect(login.user.email_verified).toBe(true);
  // The token is single use: the same link again is a page that explains, not raw JSON.
  await page.goto(link!);
  await expect(page.getByRole("alert")).toContainText("This link did not verify your email");
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/email-verify-used.png" });
});
