import { expect, type Page, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;
const ADMIN = { email: "admin@example.com", password: "browser admin password" };

async function call(method: string, path: string, body?: unknown, token?: string): Promise<Response> {
  return fetch(`${base()}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const post = async (path: string, body: unknown, token?: string) => (await call("POST", path, body, token)).json() as Promise<any>;
const get = async (path: string, token: string) => (await call("GET", path, undefined, token)).json() as Promise<any>;

/** A fresh customer account (through the API): its email, access token and user id. */
async function customer(prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  const signup = await post("/api/auth/signup", { email, password: "customer password 1" });
  return { email, token: signup.access_token as string, id: signup.user.id as string };
}

/** The admin's token; the account may already exist from another test file on the same server. */
async function adminToken(): Promise<string> {
  return (await post("/api/auth/login", ADMIN)).access_token ?? (await post("/api/auth/signup", ADMIN)).access_token;
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto(`${base()}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
const adminNav = (page: Page) => page.getByRole("navigation", { name: "Admin" });

test("admin: finds a customer, adjusts credits, refunds a job, answers (and emails) a ticket, closes and reopens it; stats, outbox and audit agree", async ({
  page,
}) => {
  test.setTimeout(240_000);
  // Setup through the API: a customer with one finished research job and one support ticket.
  const user = await customer("admin-flow");
  const key = (await post("/api/keys", { name: "browser" }, user.token)).plaintext as string;
  const job = await post("/v1/research", { question: "How did presidents describe tariffs in the 19th century?", mode: "lite" }, key);
  expect(job.status).toBe("succeeded");
  const subject = `Invoice question ${Date.now()}`;
  expect((await call("POST", "/api/support", { category: "billing", subject, body: "My invoice shows the wrong amount." }, user.token)).status).toBe(200);
  const startBalance = (await get("/api/credits/balance", user.token)).credits as number;
  const admin = await adminToken();

  await logIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();

  // Stats: the tiles and the three charts of the last 30 days.
  await expect(page.getByRole("heading", { name: "Stats" })).toBeVisible();
  const stats = await get("/api/admin/stats", admin);
  const tile = (label: string) => page.getByLabel("Totals").locator("div").filter({ hasText: label }).getByRole("definition");
  await expect(tile("Total users")).toHaveText(stats.total_users.toLocaleString("en-US"));
  await expect(tile("Open tickets")).toHaveText(stats.open_tickets.toLocaleString("en-US"));
  for (const chart of ["Signups per day", "Jobs per day", "Credits charged per day"]) {
    await expect(page.getByRole("figure", { name: new RegExp(chart) })).toBeVisible();
  }
  await expect(page.getByText("Top-up revenue, 30 days")).toBeVisible();
  await shot(page, "admin-stats");

  // Users: search, open the detail.
  await adminNav(page).getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await shot(page, "admin-users");
  await page.getByLabel("Email or user id").fill(user.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("row")).toHaveCount(2); // the header and the one match
  await page.getByRole("link", { name: user.email }).click();
  await expect(page.getByRole("heading", { name: user.email })).toBeVisible();
  const balanceTile = page.getByLabel("Balance and usage").locator("div").filter({ hasText: "Credits" }).getByRole("definition");
  await expect(balanceTile).toHaveText(startBalance.toLocaleString("en-US"));

  // Credits +250 with a note; a double click still credits once (one idempotency key per submission).
  const note = `Goodwill for ${subject}`;
  await page.getByLabel("Credits to add (negative to remove)").fill("250");
  await page.getByLabel("Note (kept on the ledger entry)").fill(note);
  await page.getByRole("button", { name: "Apply adjustment" }).dblclick();
  const after = (startBalance + 250).toLocaleString("en-US");
  await expect(page.getByRole("status").filter({ hasText: `The balance is now ${after} credits` })).toBeVisible();
  await expect(balanceTile).toHaveText(after);
  const ledgerRow = page.getByRole("table", { name: "Ledger" }).getByRole("row").filter({ hasText: note });
  await expect(ledgerRow).toHaveCount(1);
  await expect(ledgerRow).toContainText("admin_adjustment");
  await expect(ledgerRow).toContainText("+250");
  await expect(ledgerRow).toContainText(after);
  await shot(page, "admin-user-detail");
  expect((await get("/api/credits/balance", user.token)).credits).toBe(startBalance + 250);

  // Suspend (asks first, in the app's dialog; the customer's calls are then refused), then lift it.
  await page.getByRole("button", { name: "Suspend this user" }).click();
  await page
    .getByRole("dialog", { name: `Suspend ${user.email}?` })
    .getByRole("button", { name: "Suspend" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: `${user.email} is suspended.` })).toBeVisible();
  await expect(page.getByRole("group", { name: "Suspension" })).toContainText("Suspended since");
  expect((await call("GET", "/api/credits/balance", undefined, user.token)).status).toBe(403);
  await page.getByRole("button", { name: "Lift the suspension" }).click();
  await expect(page.getByRole("status").filter({ hasText: "can use the service again" })).toBeVisible();
  expect((await call("GET", "/api/credits/balance", undefined, user.token)).status).toBe(200);

  // Jobs: filtered by the customer's email, the job's detail, a refund after a confirmation.
  await adminNav(page).getByRole("link", { name: "Jobs" }).click();
  await page.getByLabel("User email").fill(user.email);
  await page.getByLabel("Status").selectOption("succeeded");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("row")).toHaveCount(2);
  await shot(page, "admin-jobs");
  await page.getByRole("link", { name: "How did presidents describe tariffs" }).click();
  await expect(page.getByRole("heading", { name: "Job", exact: true })).toBeVisible();
  await page.getByLabel("Credits to refund").fill("5");
  await page.getByLabel("Note", { exact: true }).fill("The answer cited a page twice");
  await page.getByRole("button", { name: "Refund credits" }).click();
  const confirmation = page.getByRole("dialog");
  await expect(confirmation).toContainText("Refund 5 credits");
  await confirmation.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `5 credits refunded to ${user.email}` })).toBeVisible();
  expect((await get("/api/credits/balance", user.token)).credits).toBe(startBalance + 255);
  await shot(page, "admin-job-detail");

  // Tickets: open the customer's, reply with an email.
  await adminNav(page).getByRole("link", { name: "Tickets" }).click();
  await expect(page.getByRole("link", { name: subject })).toBeVisible();
  await shot(page, "admin-tickets");
  await page.getByRole("link", { name: subject }).click();
  await expect(page.getByRole("heading", { name: subject })).toBeVisible();
  const facts = page.getByRole("definition").filter({ hasText: /^(open|answered|closed)$/ });
  await expect(facts).toHaveText("open");
  const replyText = `Thanks, we corrected the invoice (${Date.now()}).`;
  await page.getByLabel("Your reply").fill(replyText);
  await page.getByLabel(`Send email to ${user.email}`).check();
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Reply saved and emailed to ${user.email}` })).toBeVisible();
  await expect(facts).toHaveText("answered");
  const reply = page.getByRole("listitem").filter({ hasText: replyText });
  await expect(reply).toContainText("emailed to the user");
  await shot(page, "admin-ticket-answered");

  // The outbox holds the emailed reply.
  const ticketUrl = page.url();
  await adminNav(page).getByRole("link", { name: "Outbox" }).click();
  await page.getByLabel("Recipient").fill(user.email);
  await page.getByRole("button", { name: "Filter" }).click();
  const email = page.getByRole("listitem").filter({ hasText: `Re: ${subject}` });
  await expect(email).toBeVisible();
  await email.getByText(`Re: ${subject}`).click(); // opens the email's text
  await expect(email).toContainText(replyText);
  await shot(page, "admin-outbox");

  // Close, then reopen.
  await page.goto(ticketUrl);
  await page.getByRole("button", { name: "Close ticket" }).click();
  await expect(facts).toHaveText("closed");
  await page.getByRole("button", { name: "Reopen ticket" }).click();
  await expect(facts).toHaveText("open");
  await shot(page, "admin-ticket-reopened");

  // Processor events (none in a fresh server without a processor: the page says so, or lists them).
  await adminNav(page).getByRole("link", { name: "Processor events" }).click();
  await expect(page.getByRole("heading", { name: "Processor events" })).toBeVisible();
  await expect(page.getByText("No processor events received yet.").or(page.getByRole("table"))).toBeVisible();
  await shot(page, "admin-events");

  // The audit trail has the adjustment, once, with its note and the balance after it.
  await adminNav(page).getByRole("link", { name: "Audit trail" }).click();
  await page.getByLabel("Target id").fill(user.id);
  await page.getByRole("button", { name: "Filter" }).click();
  const adjustments = page.getByRole("row").filter({ hasText: "user.credits_adjust" });
  await expect(adjustments).toHaveCount(1);
  await expect(adjustments).toContainText(note);
  await expect(adjustments).toContainText(ADMIN.email);
  await expect(adjustments).toContainText(String(startBalance + 250));
  await page.getByLabel("Target id").fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("row").filter({ hasText: "ticket.reopen" }).first()).toBeVisible();
  await shot(page, "admin-audit");
});

test("a non-admin sees no Admin link, is refused on /admin pages with no admin data, and the API answers 403", async ({ page }) => {
  const user = await customer("not-admin");
  expect((await call("GET", "/api/admin/stats", undefined, user.token)).status).toBe(403);
  const adminCalls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/admin/")) adminCalls.push(request.url());
  });
  const meLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/auth/me" && response.ok());
  await logIn(page, user.email, "customer password 1");
  await meLoaded; // the nav knows the account is not an admin
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" })).toHaveCount(0);
  for (const path of ["/admin", "/admin/users"]) {
    await page.goto(`${base()}${path}`);
    await expect(page.getByRole("heading", { name: "You do not have access to the admin pages" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the overview" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
    await expect(page.getByRole("table")).toHaveCount(0);
  }
  expect(adminCalls).toEqual([]); // the pages never even asked
  await shot(page, "admin-refused");
  await page.getByRole("link", { name: "Back to the overview" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
});

test("at 375 px the admin users page and a user detail fit", async ({ page }) => {
  const user = await customer("admin-narrow-with-a-rather-long-address");
  await adminToken();
  await page.setViewportSize({ width: 375, height: 740 });
  await logIn(page, ADMIN.email, ADMIN.password);
  const overflow = async () => (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
  await page.goto(`${base()}/admin/users`);
  await expect(page.getByRole("link", { name: user.email })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await shot(page, "admin-users-375");
  await page.getByRole("link", { name: user.email }).click();
  await expect(page.getByRole("heading", { name: user.email })).toBeVisible();
  await expect(page.getByRole("table", { name: "Ledger" })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await shot(page, "admin-user-detail-375");
});
