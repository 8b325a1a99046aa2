import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;

async function call(method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${base()}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.text().then((text) => (text ? JSON.parse(text) : null))) as any };
}

/** An admin's access token (ADMIN_EMAILS lists admin@example.com in the browser tests' server). */
async function adminToken(): Promise<string> {
  const credentials = { email: "admin@example.com", password: "browser admin password" };
  return (await call("POST", "/api/auth/login", credentials)).body?.access_token ?? (await call("POST", "/api/auth/signup", credentials)).body.access_token;
}

test("support: a request is sent and listed as open; the team's reply shows under it, answered", async ({ page }) => {
  const email = `support-${Date.now()}@example.com`;
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Support" }).click();
  await expect(page.getByRole("heading", { name: "Support", level: 1 })).toBeVisible();
  await expect(page.getByText("No requests yet")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/support-empty.png", fullPage: true });

  const subject = `Webhook deliveries time out ${Date.now()}`;
  const form = page.getByRole("form", { name: "New support request" });
  await form.getByLabel("Topic").selectOption({ label: "Technical problem" });
  await form.getByLabel("Subject").fill(subject);
  await form.getByLabel("Message").fill("Since this morning every delivery to my receiver fails.\nThe receiver answers within 2 s.");
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByRole("status")).toContainText(`we received “${subject}”`);
  await expect(form.getByRole("status")).toContainText(email);
  // The form is cleared and the list refreshed.
  await expect(form.getByLabel("Subject")).toHaveValue("");
  await expect(form.getByLabel("Message")).toHaveValue("");
  await expect(form.getByLabel("Topic")).toHaveValue("");
  const ticket = page.getByRole("article", { name: subject });
  await expect(ticket).toContainText("Open");
  await expect(ticket).toContainText("Technical problem");
  await expect(ticket).toContainText("The receiver answers within 2 s.");
  await page.screenshot({ path: "test-results/screens/support-sent.png", fullPage: true });

  // The team answers (as an admin, through the API, without an email).
  const admin = await adminToken();
  const open = await call("GET", "/api/admin/tickets?status=open&category=technical&limit=100", undefined, admin);
  expect(open.status).toBe(200);
  const row = (open.body as { id: string; subject: string; email: string }[]).find((candidate) => candidate.subject === subject);
  expect(row?.email).toBe(email);
  const reply = "Thanks for the report: your receiver's TLS certificate expired at 06:00 UTC.";
  expect((await call("POST", `/api/admin/tickets/${row!.id}/reply`, { body: reply, send_email: false }, admin)).status).toBe(200);

  await page.reload();
  await expect(ticket).toContainText("Answered");
  await expect(ticket.getByRole("list", { name: `Replies to ${subject}` })).toContainText(reply);
  await page.screenshot({ path: "test-results/screens/support-answered.png", fullPage: true });
});

test("support: an empty topic is refused by the form before anything is sent; at 375 px the page fits", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`support-narrow-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("browser password 1");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.goto(`${base()}/support`);
  const form = page.getByRole("form", { name: "New support request" });
  await form.getByLabel("Subject").fill("A question about invoices");
  await form.getByLabel("Message").fill("Can an invoice carry our VAT number?");
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByLabel("Topic")).toBeFocused(); // the browser points at the missing topic
  await expect(page.getByText("No requests yet")).toBeVisible();
  await form.getByLabel("Topic").selectOption({ label: "Billing and payments" });
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByRole("article", { name: "A question about invoices" })).toContainText("Billing and payments");
  const overflow = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screens/support-375.png", fullPage: true });
});
