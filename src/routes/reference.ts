import { errorCodeTable } from "../http/openapi";
import { modePrices } from "../research/service";
import { AUTHENTICATION_GUIDE, WEBHOOKS_GUIDE } from "../http/guides";

/**
 * The top of /openapi.json: the guide a reader meets first (info.description, Markdown) and the
 * tags in the order a customer reads them. The figures in it come from their own sources (the
 * mode price list, the error codes), so the text cannot drift from what the service does.
 */

/** Tags in reading order: the public API first, the dashboard's API next, the operator surface last. */
export const REFERENCE_TAGS = [
  {
    name: "Research",
    description:
      "Ask a question, get a cited brief. `POST /v1/research` runs a research job under a mode (lite, standard, pro, max) that fixes its price and limits; short jobs answer at once (200), long ones answer 202 and are followed by polling, a Server-Sent Events stream or a signed webhook. Jobs can be read, cancelled (unspent credits refunded) and listed. Authenticated with an API key.",
  },
  {
    name: "Collections",
    description:
      "Your own documents, searchable by research. Create a collection, add documents (JSON or uploaded files: text, Markdown, HTML, PDF, JSON Lines), then name it in a research request's `collections`. Adding documents is charged per MB of text. Authenticated with an API key.",
  },
  {
    name: "Monitors",
    description:
      "Research that runs again on a schedule and says what changed: each run is a research job charged as one, compared with the run before (sources added and gone, the short answer, claims added and withdrawn); `monitor.changed` is POSTed to your webhook only when something changed. A monitor whose run the balance does not cover pauses itself. Authenticated with an API key.",
  },
  {
    name: "Credits",
    description:
      "Your credit balance. One credit is 0.01 USD; research and document ingestion are paid in credits. Available with an API key (`/v1/credits`) and in the dashboard.",
  },
  {
    name: "API keys",
    description:
      "Create, list, reset and revoke the API keys that authenticate `/v1`. A key's full text is shown once, when it is created or reset. Dashboard API (access token).",
  },
  {
    name: "Billing",
    description:
      "Prices and payment: credit packs (pay as you go), monthly plans, the research modes and the metered operation prices (public), checkout and the customer portal, auto top-up, the current subscription and payment history.",
  },
  {
    name: "Dashboard",
    description: "The dashboard's overview of your account: recent jobs, daily usage and the job log, covering jobs from the API and from the playground.",
  },
  {
    name: "Playground",
    description:
      "Research from the dashboard, with an access token instead of an API key: the same engine, rules and charges as `/v1/research`. Any of the account's jobs can be read, streamed and cancelled here, including those its API keys started.",
  },
  {
    name: "Dashboard collections",
    description:
      "The operations of Collections, for the dashboard: the same collections and documents, authenticated with an access token instead of an API key.",
  },
  {
    name: "Accounts",
    description:
      "Sign up (500 free credits), sign in, keep a session alive and end it, reset a forgotten password and verify an email address. A session is a 15-minute access token and a 30-day, single-use refresh token.",
  },
  {
    name: "Settings",
    description: "Your password, name and email preferences, and the secret that signs your webhooks.",
  },
  {
    name: "Support",
    description: "Ask for help: submit a ticket (a confirmation is emailed) and read your tickets with the replies they received.",
  },
  {
    name: "System",
    description: "Liveness of the service.",
  },
  {
    name: "Admin",
    description:
      "The operator surface: users, credits, jobs and refunds, support tickets, business figures, payment processor events, sent emails, the audit trail and the shared search corpus. Only for users whose `is_admin` is true; anyone else gets 403 `forbidden`. Every change writes an audit entry.",
  },
] as const;

/**
 * The modes side by side, one column each and one row per figure: four narrow columns fit the
 * reference's guide column, where seven (a row per mode) were squeezed until words broke ("mo de").
 */
function modeTable(): string {
  const modes = modePrices();
  const row = (label: string, cell: (mode: (typeof modes)[number]) => string) => `| ${label} | ${modes.map(cell).join(" | ")} |`;
  return [
    `| mode | ${modes.map((m) => `\`${m.mode}\``).join(" | ")} |`,
    `|---|${modes.map(() => "---").join("|")}|`,
    row("credits", (m) => (m.credits === null ? "metered, up to `max_credits`" : String(m.credits))),
    row("max cost (USD)", (m) => (m.max_cost_usd === null ? "`max_credits` / 100" : m.max_cost_usd.toFixed(2))),
    row("wall clock", (m) => `${m.max_wallclock_secs} s`),
    row("sources", (m) => String(m.max_sources)),
    row("waves", (m) => `${m.max_waves}${m.critic ? " + critic" : ""}`),
    row("answers by default", (m) => (m.async_by_default ? "202" : "200")),
  ].join("\n");
}

/** info.description: what the API does and the rules every operation shares (`version`: the document's). */
export function referenceDescription(version: string): string {
  return `Cited research briefs from many sources, paid in credits.

Send a question; the service searches, reads and cross-checks sources in waves and answers with a brief in which every sentence cites its sources (\`[n]\` is \`sources[n - 1]\`), the exact quotes behind each claim, and, when you send a JSON Schema, a typed object that conforms to it.

## Quick start

\`\`\`sh
curl -X POST "$BASE/v1/research" \\
  -H "Authorization: Bearer $DEEP_RESEARCH_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"question": "What did presidents say about tariffs in the 1890s?", "mode": "lite"}'
\`\`\`

\`$BASE\` is this server's address (see Servers). A \`lite\` job answers at once with the brief; other modes answer 202 and are followed as below.

## Modes and credits

One credit is 0.01 USD. A new account starts with 500 credits; more come in packs or with a monthly plan. A job's mode fixes its price and its limits:

${modeTable()}

The price is reserved when the job is accepted (402 \`insufficient_credits\` if the balance is short) and settled when it ends: a succeeded job pays its mode's price (\`max\`: its metered cost, never above \`max_credits\`), a cancelled one pays for the work already done, a failed one pays nothing. A succeeded job whose sources do not address the question at all (its brief says so and its \`answer\` is null) pays only its metered work, never more than its mode's price.

## Synchronous or asynchronous

A job answers **200** with its result (succeeded, or failed and refunded) when its wall clock (the mode's, or \`max_wallclock_secs\`) is 60 seconds or less. It answers **202** with \`status_url\` and \`events_url\` when \`async\` is true, when \`webhook_url\` is set, or when its wall clock exceeds 60 seconds. Follow a 202 job by polling \`status_url\`, by reading the Server-Sent Events at \`events_url\` (events \`status\`, \`progress\`, \`source\`, \`error\`, then \`result\` last; reconnect with \`Last-Event-ID\`), or by receiving the result at \`webhook_url\`.

${AUTHENTICATION_GUIDE}

${WEBHOOKS_GUIDE}

## Idempotency

Send an \`Idempotency-Key\` header (1 to 255 printable ASCII characters) with \`POST /v1/research\` and with document uploads: the same key with the same body returns the first answer, and nothing runs or is charged twice; the same key with another body is 422 \`idempotency_key_reused\`. Research keys are kept 24 hours; upload keys do not expire.

## Lists

Lists are newest first and paged with \`limit\` (1 to 100, default 20) and \`offset\` (default 0). The body is the bare array, with no total; when another page exists the response carries a \`Link: <url>; rel="next"\` header with that page's URL (the same request, \`offset\` moved on), and the last page carries none. Follow it until it is absent to read a whole list.

## Rate limits

600 requests a minute per API key on \`/v1\`; sign-in, sign-up and password reset are limited per client and per email. Every answer to an API key carries the limit's state: \`RateLimit-Limit\` (requests per window), \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the window resets), so a client can slow down before it is refused. Over a limit the answer is 429 \`rate_limited\` with a \`Retry-After\` header (seconds) and the same three headers.

## Errors

Every error has the body \`{"error": {"code", "message", "details"?}}\`, and every response an \`X-Request-Id\` header (quote it to support). Branch on \`code\`, a closed set:

${errorCodeTable()}

## Versioning

The public API is versioned by its path (\`/v1\`); this document is version ${version}. The dashboard API (\`/api\`) serves the dashboard and has no version segment.`;
}
