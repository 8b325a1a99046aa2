import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";

/**
 * MCP's OAuth consent in the browser: an agent sends a signed-out customer to /oauth/authorize;
 * they log in, come back to the consent page, read which account, which agent and where access
 * goes, set a credit cap and approve; the browser goes back to the agent with a code; the API keys
 * page lists the connected agent, and Revoke removes its access after a confirmation.
 */

const base = () => process.env.DASHBOARD_BASE_URL!;
const CALLBACK = "http://127.0.0.1:45199/callback";

async function registeredAgent(): Promise<string> {
  const response = await fetch(`${base()}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Browser test agent", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string): string {
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  const url = new URL(`${base()}/oauth/authorize`);
  const params = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: CALLBACK,
    scope: "research",
    state: "browser-state",
    code_challenge: challenge,
    code_challenge_method: "S256",
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

test("OAuth consent: logged in first and back, the request shown, approved with a credit cap, listed and revoked on the API keys page", async ({ page }) => {
  const email = `consent-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await fetch(`${base()}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "consent browser password" }),
  });
  expect(signup.ok).toBe(true);
  const clientId = await registeredAgent();
  // The agent's callback: a program on this computer, played by the test.
  await page.route(`${CALLBACK}**`, (route) => route.fulfill({ contentType: "text/html", body: "<h1>Agent connected</h1>" }));

  await page.goto(authorizeUrl(clientId));
  await expect(page).toHaveURL(/\/login\?next=%2Foauth%2Fconsent/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("consent browser password");
  await page.getByRole("button", { name: "Log in" }).click();

  await expect(page.getByRole("heading", { name: "Connect Browser test agent to your account?" })).toBeVisible();
  const request = page.getByRole("definition");
  await expect(request.filter({ hasText: email })).toBeVisible();
  await expect(request.filter({ hasText: CALLBACK })).toBeVisible();
  await expect(page.getByText("Run research for this account")).toBeVisible();
  await expect(page.getByRole("note")).toContainText("a program on this computer");
  await page.getByLabel("Credit cap for this connection").fill("250");
  await expect(page.getByText("250 credits")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/oauth-consent.png", fullPage: true });
  await page.getByRole("button", { name: "Approve" }).click();

  await expect(page.getByRole("heading", { name: "Agent connected" })).toBeVisible();
  const back = new URL(page.url());
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(back.searchParams.get("code")).toBeTruthy();
  expect(back.searchParams.get("state")).toBe("browser-state");

  await page.goto(`${base()}/keys`);
  const agents = page.getByRole("region", { name: "Connected agents" });
  await expect(agents.getByRole("cell", { name: "Browser test agent", exact: true })).toBeVisible();
  await expect(agents.getByRole("cell", { name: "250", exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/keys-connected-agents.png", fullPage: true });
  await agents.getByRole("button", { name: "Revoke Browser test agent" }).click();
  await page.getByRole("dialog", { name: 'Revoke "Browser test agent"?' }).getByRole("button", { name: "Revoke" }).click();
  await expect(agents.getByText(/^Revoked /)).toBeVisible();
});

test("OAuth consent: Deny sends the agent access_denied; an unknown request says to start again", async ({ page }) => {
  const signup = await fetch(`${base()}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `deny-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`, password: "consent browser password" }),
  });
  const { refresh_token } = (await signup.json()) as { refresh_token: string };
  await page.addInitScript((token) => {
    if (!localStorage.getItem("deep-research.refresh-token")) localStorage.setItem("deep-research.refresh-token", token);
  }, refresh_token);
  await page.route(`${CALLBACK}**`, (route) => route.fulfill({ contentType: "text/html", body: "<h1>Agent told</h1>" }));

  await page.goto(authorizeUrl(await registeredAgent()));
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("heading", { name: "Agent told" })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");

  await page.goto(`${base()}/oauth/consent?request=${"x".repeat(32)}`);
  await expect(page.getByRole("alert")).toContainText("start connecting from the agent again");
});
