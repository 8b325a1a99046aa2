import { describe, expect, it } from "vitest";
import { callConfigured } from "./configured-call";
import { dbAll, dbFirst, expectError, json, signupUser, uniqueEmail } from "./helpers";

/**
 * Issue 39, item 7: the links in verification and reset emails never follow a Host the caller
 * wrote. With DASHBOARD_URL they use it; without it, only a loopback host or one listed in
 * LINK_HOSTS gives its origin, and a request from any other host is refused (400) before an
 * account or an email exists. The outbox is what would have been mailed.
 */
const UNSET = { DASHBOARD_URL: undefined, LINK_HOSTS: undefined };

async function outboxTo(email: string): Promise<{ subject: string; text: string }[]> {
  return dbAll<{ subject: string; text: string }>('select subject, text from outbox_emails where "to" = ?', email.toLowerCase());
}

function signupFrom(base: string, email: string, vars: Record<string, string | undefined> = UNSET) {
  return callConfigured(vars, "/api/auth/signup", { base, body: { email, password: "a long password 1" } });
}

describe("email links without DASHBOARD_URL", () => {
  it("refuses a signup from a foreign Host: no account, no email", async () => {
    const email = uniqueEmail("foreign");
    const body = await expectError(await signupFrom("http://evil.example", email), 400, "invalid_request");
    expect(body.error.message).toMatch(/DASHBOARD_URL/);
    expect(await dbFirst("select id from users where email = ?", email.toLowerCase())).toBeNull();
    expect(await outboxTo(email)).toEqual([]);
  });

  it("refuses a password reset asked through a foreign Host, for an existing account: no email", async () => {
    const user = await signupUser();
    const before = await outboxTo(user.email);
    for (const base of ["http://evil.example", "https://evil.example:8443", "http://10.0.0.1"]) {
      const response = await callConfigured(UNSET, "/api/auth/forgot-password", { base, body: { email: user.email } });
      await expectError(response, 400, "invalid_request");
    }
    const after = await outboxTo(user.email);
    expect(after).toEqual(before);
    expect(after.map((mail) => mail.text).join("\n")).not.toContain("evil.example");
  });

  it("builds links on a loopback host's origin (npm start): the link works", async () => {
    for (const base of ["http://127.0.0.1:8787", "http://localhost:8787", "http://[::1]:9000"]) {
      const email = uniqueEmail("loopback");
      expect((await signupFrom(base, email)).status).toBe(200);
      const [mail] = await outboxTo(email);
      const link = new RegExp(`^${base.replace(/[.[\]]/g, "\\$&")}/verify-email\\?token=(\\S+)$`, "m").exec(mail!.text);
      expect(link, base).not.toBeNull();
      const verified = await callConfigured(UNSET, `/api/auth/verify-email?token=${link![1]}`, { base });
      expect(verified.status).toBe(302);
      expect(verified.headers.get("Location")).toBe(`${base}/?email_verified=1`);
    }
  });

  it("builds links on a host listed in LINK_HOSTS (any port, or the port it names), and on no other", async () => {
    const vars = { DASHBOARD_URL: undefined, LINK_HOSTS: "dash.example.org, Portal.Example.net:8443" };
    for (const base of ["https://dash.example.org", "https://dash.example.org:444", "https://portal.example.net:8443"]) {
      const email = uniqueEmail("listed");
      expect((await signupFrom(base, email, vars)).status, base).toBe(200);
      expect((await outboxTo(email))[0]!.text).toContain(`${base}/verify-email?token=`);
    }
    for (const base of ["https://evil.dash.example.org", "https://portal.example.net", "https://dash.example.org.evil.example"]) {
      const email = uniqueEmail("unlisted");
      await expectError(await signupFrom(base, email, vars), 400, "invalid_request");
      expect(await outboxTo(email)).toEqual([]);
    }
  });

  it("redirects a verification opened through a foreign Host relatively, never to that host", async () => {
    const email = uniqueEmail("relative");
    expect((await signupFrom("http://127.0.0.1:8787", email)).status).toBe(200);
    const token = /token=(\S+)/.exec((await outboxTo(email))[0]!.text)![1]!;
    const response = await callConfigured(UNSET, `/api/auth/verify-email?token=${token}`, { base: "http://evil.example" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/?email_verified=1");
  });
});

describe("email links with DASHBOARD_URL", () => {
  it("ignore the Host entirely: a foreign Host's signup and reset mail DASHBOARD_URL's links", async () => {
    const vars = { DASHBOARD_URL: "https://app.example.com/", LINK_HOSTS: undefined };
    const email = uniqueEmail("configured");
    const response = await signupFrom("http://evil.example", email, vars);
    expect(response.status).toBe(200);
    expect((await json(response)).user.email).toBe(email.toLowerCase());
    expect((await callConfigured(vars, "/api/auth/forgot-password", { base: "http://evil.example", body: { email } })).status).toBe(200);
    const mails = await outboxTo(email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(["Confirm your email address", "Reset your password"]);
    for (const mail of mails) {
      expect(mail.text).toMatch(/^https:\/\/app\.example\.com\/(verify-email|reset-password)\?token=\S+$/m);
      expect(mail.text).not.toContain("evil.example");
    }
  });
});
