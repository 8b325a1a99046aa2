import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";

/**
 * The dashboard's webhook tools (issue 30): "Send a test event" on Settings and "Resend" in a job's
 * deliveries, each reaching a receiver this test runs on 127.0.0.1 (development allows loopback
 * webhook URLs), which records what arrives.
 */

const base = () => process.env.DASHBOARD_BASE_URL!;

interface Arrival {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const arrivals: Arrival[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      arrivals.push({ path: request.url ?? "", headers: request.headers, body });
      // A receiver that rejects the signature, as a misconfigured one does.
      if (request.url === "/refuses") response.writeHead(401).end();
      else response.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const PASSWORD = "webhook password 1";

async function signUp(page: Page, email: string) {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

const arrivedAt = (path: string) => arrivals.filter((arrival) => arrival.path === path);

test("Settings sends a test event to a receiver, signed both ways, and says what the receiver answered", async ({ page }) => {
  await signUp(page, `hooks-${Date.now()}@example.com`);
  await page.goto(`${base()}/settings`);
  const section = page.getByRole("region", { name: "Webhook signing secret" });
  await section.getByLabel("Receiver URL").fill(`${receiverUrl}/settings-test`);
  await section.getByRole("button", { name: "Send a test event" }).click();
  await expect(section.getByRole("status")).toContainText("Your endpoint answered 200.");
  const [arrival] = arrivedAt("/settings-test");
  expect(arrival?.headers["webhook-signature"]).toMatch(/^v1,/);
  expect(arrival?.headers["x-service-signature"]).toMatch(/^sha256=/);
  expect(JSON.parse(arrival!.body)).toMatchObject({ type: "webhook.test" });
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/settings-webhook-test.png" });

  // A receiver that answers 401: a failure, said as one (an alert in the error red), not in the success green.
  await section.getByLabel("Receiver URL").fill(`${receiverUrl}/refuses`);
  await section.getByRole("button", { name: "Send a test event" }).click();
  const failure = section.getByRole("alert");
  await expect(failure).toHaveText("The test event failed: receiver answered 401. A receiver must answer 2xx to accept an event.");
  await expect(failure).toHaveCSS("color", "rgb(180, 35, 24)"); // --bad
  await expect(section.getByRole("status")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/settings-webhook-test-failed.png" });
});

test("a job's deliveries can be resent from its page: the same delivery, one more attempt", async ({ page }) => {
  const email = `resend-${Date.now()}@example.com`;
  await signUp(page, email);

  // The job is started through the API with a key of this account.
  const login = (await (
    await fetch(`${base()}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
  ).json()) as { access_token: string };
  const { plaintext } = (await (
    await fetch(`${base()}/api/keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${login.access_token}` },
      body: JSON.stringify({ name: "hooks" }),
    })
  ).json()) as { plaintext: string };
  const submitted = (await (
    await fetch(`${base()}/v1/research`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${plaintext}` },
      body: JSON.stringify({ question: "What was the Tariff of 1828?", mode: "lite", webhook_url: `${receiverUrl}/resend` }),
    })
  ).json()) as { id: string };
  await expect.poll(() => arrivedAt("/resend").length, { timeout: 30_000 }).toBe(1);

  await page.goto(`${base()}/jobs/${submitted.id}`);
  const resend = page.getByRole("button", { name: /^Resend research\.completed/ }).first();
  await resend.click();
  await expect.poll(() => arrivedAt("/resend").length, { timeout: 30_000 }).toBe(2);
  const [first, again] = arrivedAt("/resend");
  expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
  expect(again!.body).toBe(first!.body);
  await expect(page.getByRole("button", { name: /\(attempt 2\)/ })).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: "test-results/screens/job-deliveries-resend.png" });
});
