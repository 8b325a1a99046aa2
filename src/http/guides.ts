/**
 * The guides of the API reference, in Markdown, published in the OpenAPI document's
 * `info.description` (the reference at /docs renders them with their headings in its sidebar).
 * The code in them is run by test/e2e/research.e2e.test.ts against a real webhook delivery, so a
 * guide cannot drift from what the service sends; its figures come from the delivery code.
 */
import { DELIVERY_TIMEOUT_MS, MAX_DELIVERY_ATTEMPTS, retryDelaySecs } from "../webhooks/signing";
import { DELIVERY_HEADERS, EVENT_DESCRIPTIONS } from "../webhooks/headers";

const TERMINAL: readonly string[] = ["research.completed", "research.failed", "research.cancelled"];

/** From the first attempt to the last: the sum of the waits between them. */
const RETRY_SPAN_SECS = Array.from({ length: MAX_DELIVERY_ATTEMPTS - 1 }, (_, i) => retryDelaySecs(i + 1)).reduce((a, b) => a + b, 0);

/** Verifies a delivery in Node (18+): the HMAC-SHA256 of the raw body, compared in constant time. */
export const NODE_VERIFY = `import { createHmac, timingSafeEqual } from "node:crypto";

/** True when \`signature\` (the X-Service-Signature header) is the HMAC of exactly these bytes. */
export function verifyWebhook(rawBody, signature, secret) {
  const expected = "sha256=" + createHmac("sha256", secret).update(rawBody).digest("hex");
  const a = Buffer.from(expected);
  const b = Buffer.from(String(signature ?? ""));
  return a.length === b.length && timingSafeEqual(a, b);
}`;

/** The same in Python 3 (standard library only). */
export const PYTHON_VERIFY = `import hashlib
import hmac


def verify_webhook(raw_body: bytes, signature: str, secret: str) -> bool:
    """True when signature (the X-Service-Signature header) is the HMAC of exactly these bytes."""
    expected = "sha256=" + hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature or "")`;

export const AUTHENTICATION_GUIDE = `## Authentication

Two kinds of bearer credentials, in the \`Authorization\` header:

| Surface | Credential | Where it comes from | For |
|---|---|---|---|
| \`/v1/*\` (the public API) | an **API key**, \`dr_live_…\` | the dashboard's *API keys* page (or \`POST /api/keys\`) | your servers |
| \`/api/*\` (the dashboard API) | an **access token** (a JWT, 15 minutes) | \`POST /api/auth/signup\`, \`/login\` or \`/refresh\` | the dashboard |

\`\`\`sh
curl "$BASE/v1/credits" -H "Authorization: Bearer dr_live_..."
\`\`\`

- A few operations take no credentials (sign-up, login, the public price lists, health); they
  say so. The public API sends no CORS headers: call it from a server, never from a browser,
  since the key is a secret.
- **Keys** are shown once, when created or reset; only a hash is stored. Reset one to rotate it
  (the old value stops working at once), revoke it when it leaks. A missing, wrong or revoked key
  is \`401 unauthorized\`; a suspended account is \`403 account_suspended\`.
- **Sessions**: signup and login answer an \`access_token\` and a \`refresh_token\` (30 days,
  single use). Trade the refresh token at \`POST /api/auth/refresh\` for a new pair before or after
  the access token expires; reusing an old refresh token ends that session everywhere.
  \`POST /api/auth/logout\` ends it on purpose.
- Every response carries \`X-Request-Id\`: quote it to support.

In this reference, **Test Request** takes your key under *Authentication* and sends the request
to this server from your browser.`;

export const WEBHOOKS_GUIDE = `## Webhooks

Give \`webhook_url\` on \`POST /v1/research\` and the job runs asynchronously (202); when it ends,
the final result (the same JSON as \`GET /v1/research/{id}\`) is POSTed to that URL as
\`research.completed\`, whatever the terminal status.

**Lifecycle events.** Add \`webhook_events\` to choose what is sent:

| Event | When | Body |
|---|---|---|
${(["research.started", "research.progress", "research.completed", "research.failed", "research.cancelled", "webhook.test", "monitor.changed"] as const)
  .map((event) => `| \`${event}\` | ${EVENT_DESCRIPTIONS[event]} | ${TERMINAL.includes(event) ? "the job's result" : "`{ type, job_id, created_at, data }`"} |`)
  .join("\n")}

With \`webhook_events\`, the terminal event names the status: \`research.completed\` (succeeded),
\`research.failed\` or \`research.cancelled\`, each sent only if listed. Without it you get the one
delivery of before. Each delivery has its own id (\`webhook-id\`, \`X-Service-Delivery\`): the job
id for the terminal one, \`<job id>:research.started\`, \`<job id>:research.progress:<wave>\`.
A monitor (\`POST /v1/monitors\`) sends \`monitor.changed\` to its own \`webhook_url\`, id
\`<run's job id>:monitor.changed\`, only when a run found something changed.

Every delivery carries these headers:

| Header | Value |
|---|---|
${Object.entries(DELIVERY_HEADERS)
  .map(([name, value]) => `| \`${name}\` | ${value} |`)
  .join("\n")}

The \`webhook-*\` headers follow [Standard Webhooks](https://www.standardwebhooks.com/): an
off-the-shelf verifier (the \`standardwebhooks\` packages, svix) takes your \`whsec_…\` secret as it
is. Secrets created before lifecycle webhooks are base64url: replace \`-\` with \`+\` and \`_\` with
\`/\` for such a verifier, or rotate the secret.

**Test and resend.** \`POST /v1/webhooks/test\` with \`{ "url": … }\` sends a signed
\`webhook.test\` event now and answers what your endpoint said;
\`POST /v1/research/{id}/deliveries/{delivery_id}/resend\` sends a recorded delivery again (same
id and body, signed afresh). The dashboard has both (Settings, and a job's deliveries).

Your **signing secret** (\`whsec_…\`) is on the dashboard's *Settings* page
(\`GET /api/settings/webhook-secret\`); rotating it (\`POST /api/settings/webhook-secret/rotate\`)
makes the old one fail at once.

Answer any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} seconds. Anything else (or no answer) is retried with exponential backoff
(${[1, 2, 3].map((attempt) => retryDelaySecs(attempt) / 60).join(", ")} … minutes, ${MAX_DELIVERY_ATTEMPTS} attempts over about ${Math.round(RETRY_SPAN_SECS / 3600)} hours); \`GET /v1/research/{id}/deliveries\` lists
every attempt with its status code or error.

**Verify every delivery** before trusting it: compute the HMAC over the exact bytes you received
(before any JSON parsing), compare in constant time, and reject on mismatch.

Node (18+):

\`\`\`js
${NODE_VERIFY}

// Express: keep the raw body for the check.
// app.post("/hooks/research", express.raw({ type: "application/json" }), (req, res) => {
//   if (!verifyWebhook(req.body, req.get("X-Service-Signature"), process.env.WEBHOOK_SECRET)) return res.sendStatus(401);
//   const result = JSON.parse(req.body);
//   res.sendStatus(204);
// });
\`\`\`

Python 3:

\`\`\`python
${PYTHON_VERIFY}

# Flask: request.get_data() is the raw body.
# @app.post("/hooks/research")
# def research_hook():
#     if not verify_webhook(request.get_data(), request.headers.get("X-Service-Signature"), os.environ["WEBHOOK_SECRET"]):
#         abort(401)
#     result = request.get_json()
#     return "", 204
\`\`\`

The TypeScript SDK has it built in: \`verifyWebhook(rawBody, headers, secret)\` checks the
Standard Webhooks signature (and its timestamp, within 5 minutes) when those headers are present,
else \`X-Service-Signature\`.`;
