import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;

/** Where the reference lists GET /v1/credits (Scalar's anchor: tag slug, method, path). */
const CREDITS_ANCHOR = "#tag/credits/GET/v1/credits";

test("the API reference renders offline, with the guides, snippets, and a Test Request console that calls this server", async ({ page }) => {
  // Everything it loads comes from this server: no font, script, proxy or telemetry elsewhere.
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(base()) && !url.startsWith("data:") && !url.startsWith("blob:")) elsewhere.push(url);
  });
  const signup = (await (
    await fetch(`${base()}/api/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `docs-${Date.now()}@example.com`, password: "docs password 1" }),
    })
  ).json()) as { access_token: string };
  const key = (
    (await (
      await fetch(`${base()}/api/keys`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${signup.access_token}` },
        body: JSON.stringify({ name: "docs" }),
      })
    ).json()) as { plaintext: string }
  ).plaintext;

  await page.goto(`${base()}/docs`);
  await expect(page.getByRole("heading", { name: "Deep Research API", level: 1 })).toBeVisible({ timeout: 20_000 }); // Scalar parses a 4 MB script first
  await expect(page.getByRole("heading", { name: "Authentication", exact: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeAttached();
  await expect(page.getByText("hmac.compare_digest").first()).toBeAttached(); // the Python verification
  await page.screenshot({ path: "test-results/screens/docs.png" });

  await page.goto(`${base()}/docs${CREDITS_ANCHOR}`);
  const tryIt = page.getByRole("button", { name: /Test Request/ }).filter({ hasText: "get /v1/credits" });
  await tryIt.click();
  const client = page.getByRole("dialog");
  await client.getByLabel(/Bearer Token/i).fill(key);
  await client.getByRole("button", { name: /Send/ }).first().click();
  await expect(client).toContainText("200 OK");
  await expect(client).toContainText('"credits": 500');
  await page.screenshot({ path: "test-results/screens/docs-try-it.png" });
  expect(elsewhere).toEqual([]);
});

test("the reference shows the SDKs' own samples, Python (SDK) and TypeScript (SDK), beside the generated snippets", async ({ page }) => {
  await page.goto(`${base()}/docs#tag/research/POST/v1/research`);
  await expect(page.getByRole("heading", { name: "Deep Research API", level: 1 })).toBeVisible({ timeout: 20_000 }); // Scalar parses a 4 MB script first
  await page
    .getByRole("button", { name: /Shell Curl/ })
    .first()
    .click();
  await page.getByRole("option", { name: "Python (SDK)" }).click();
  await expect(page.getByText("from deep_research import DeepResearch").first()).toBeVisible();
  await expect(page.getByText("result = client.research.run(").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/docs-python-sample.png" });
  await page
    .getByRole("button", { name: /Python \(SDK\)/ })
    .first()
    .click();
  await page.getByRole("option", { name: "TypeScript (SDK)" }).click();
  await expect(page.getByText('import { DeepResearch } from "deep-research";').first()).toBeVisible();
});

test("/docs is the public API only; the dashboard's API and the operator surface have their own page", async ({ page }) => {
  await page.goto(`${base()}/docs`);
  await expect(page.getByRole("heading", { name: "Deep Research API", level: 1 })).toBeVisible({ timeout: 20_000 }); // Scalar parses a 4 MB script first
  const sidebar = page.locator("aside, nav").first();
  await expect(sidebar.getByText("Research", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Admin", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Playground", { exact: true })).toHaveCount(0);
  await expect(page.getByText("research.completed").first()).toBeAttached(); // the webhook entry
  await page.screenshot({ path: "test-results/screens/docs-public.png" });

  await page.goto(`${base()}/docs/dashboard`);
  await expect(page.getByRole("heading", { name: /dashboard and operator surface/, level: 1 })).toBeVisible({ timeout: 20_000 }); // Scalar parses a 4 MB script first
  await expect(page.getByText("Operator surface (admins only)").first()).toBeVisible();
  await expect(page.getByText("Your account").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/docs-dashboard.png" });
});

test("the guide's modes table reads properly: no word broken across lines, every mode a column", async ({ page }) => {
  await page.goto(`${base()}/docs`);
  await expect(page.getByRole("heading", { name: "Deep Research API", level: 1 })).toBeVisible({ timeout: 20_000 }); // Scalar parses a 4 MB script first
  const table = page.getByRole("table").filter({ hasText: "answers by default" });
  await expect(table.getByRole("columnheader")).toHaveText(["mode", "lite", "standard", "pro", "max"]);
  await table.scrollIntoViewIfNeeded();
  // A word the layout broke ("mo de", "so ur ce s") is drawn as more than one box.
  const broken = await table.evaluate((element) => {
    const found: string[] = [];
    const page = element.ownerDocument;
    const walker = page.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? "").matchAll(/\S+/g)) {
        const range = page.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        if (range.getClientRects().length > 1) found.push(match[0]);
      }
    }
    return found;
  });
  expect(broken).toEqual([]);
  await table.screenshot({ path: "test-results/screens/docs-modes-table.png" });
});
