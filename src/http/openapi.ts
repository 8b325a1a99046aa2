import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { ApiError, ERROR_STATUS, type ErrorCode } from "../lib/errors";
import { NEXT_PAGE_HEADER } from "./next-page";

/**
 * Every router is an OpenAPIHono whose validation failures become our one error body, so the
 * zod schema that validates a request is the same one that documents it in /openapi.json.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
}

export function validationError(error: z.ZodError): ApiError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? `Invalid request: ${first.path ? `${first.path}: ` : ""}${first.message}` : "Invalid request.";
  return ApiError.invalid(message, issues);
}

/**
 * What each error code means, for the reference: `title` names the response in an operation's
 * list, `meaning` says when it happens and what to do. A Record over ErrorCode, so a code added to
 * ERROR_STATUS (the one list of codes and statuses) cannot go unexplained.
 */
const ERROR_DOCS: Record<ErrorCode, { title: string; meaning: string }> = {
  invalid_request: {
    title: "Invalid request",
    meaning:
      "The request is malformed: invalid JSON, a wrong content type, an unknown field, a wrong type, a value out of range, a malformed id, an expired or used email link, or a rule of the operation broken. `details` lists each problem of a validation as `{path, message}`. Nothing was written or charged.",
  },
  impossible_budget: {
    title: "Impossible budget",
    meaning:
      "The research envelope cannot do any work: in `max` mode, `max_credits` does not cover one search, one page read and the synthesis reserve; or `max_wallclock_secs` is shorter than the mode's synthesis time reserve. Nothing was reserved.",
  },
  document_limit_exceeded: {
    title: "Too many documents in the collection",
    meaning: "The documents would take the collection beyond 10,000 documents. Nothing was written or charged.",
  },
  unauthorized: {
    title: "Missing or invalid credentials",
    meaning:
      "No credentials, or credentials that are malformed, expired or revoked: an API key on `/v1`, an access token on `/api`, or a refresh token that is unknown, expired or already spent.",
  },
  invalid_credentials: {
    title: "Invalid credentials",
    meaning: "Wrong email or password at login, or a wrong current password when changing it.",
  },
  insufficient_credits: {
    title: "Insufficient credits",
    meaning:
      "The balance is below what the call must reserve (the mode's price, `max_credits` in `max` mode, or the ingest price). Nothing was charged. Buy a pack, subscribe to a plan or turn on auto top-up.",
  },
  storage_limit_exceeded: {
    title: "Storage limit of the plan reached",
    meaning:
      "The documents would take the account's collections beyond its plan's storage (text bytes: Free 50 MB, Developer 1 GB, Startup 5 GB, Growth 20 GB). Nothing was written or charged.",
  },
  forbidden: {
    title: "Not allowed",
    meaning: "Signed in, but not allowed to do this: an operator (admin) operation called by a user who is not an admin.",
  },
  account_suspended: {
    title: "Account suspended",
    meaning: "The account is suspended: login and every call with its access tokens or API keys answer this. Jobs already running finish.",
  },
  email_not_verified: {
    title: "Email not verified",
    meaning:
      "The account's email address is not verified and the research would spend more than an unverified account may (100 of the 500 signup credits by default; bought credits are not bounded). Nothing was reserved. Open the link emailed at sign-up (a password reset also verifies the address), then send the request again.",
  },
  not_found: {
    title: "Not found",
    meaning:
      "No such resource for this account: an unknown id, or one that belongs to another account (the two are indistinguishable on purpose), or no such route.",
  },
  email_taken: {
    title: "Email already registered",
    meaning: "An account with this email already exists: sign in, or reset its password.",
  },
  idempotency_conflict: {
    title: "Same Idempotency-Key still in progress",
    meaning:
      "A request with the same `Idempotency-Key` is still being processed (a synchronous research request sent again while the first is starting). Retry in a moment to get its answer.",
  },
  payload_too_large: {
    title: "Too large",
    meaning:
      "A document's text is over 2 MB, an uploaded file over 20 MB or a request body over 21 MB; or a PDF passes a reading bound: over 2,000 pages, a compressed stream inflating to over 8 MB (64 MB for the file), or over 20 s to read the PDFs of one call. The message names the bound.",
  },
  unsupported_media_type: {
    title: "Unsupported media type",
    meaning: "An uploaded file is not `.txt`, `.md`, `.html`, `.pdf` or `.jsonl`, or a body is neither JSON nor multipart where both are accepted.",
  },
  idempotency_key_reused: {
    title: "Idempotency-Key reused with another body",
    meaning: "The `Idempotency-Key` (or `idempotency_key`) was already used with a different body. Use a new key for a new request.",
  },
  rate_limited: {
    title: "Too many requests",
    meaning:
      "A rate limit was reached (per API key on `/v1`; per client and per email on sign-in, sign-up and password reset; per account on what costs a request of ours, e.g. test events and resends, playground submits and quotes, support tickets, payment sessions, password changes). Wait the seconds the `Retry-After` header gives.",
  },
  payment_processor_not_configured: {
    title: "Payment processor not configured",
    meaning: "This server has no payment processor set up, so checkout, the customer portal and processor webhooks are unavailable.",
  },
  internal: {
    title: "Internal error",
    meaning: "A failure on our side, logged under the response's `X-Request-Id` (quote it to support). A research job that fails this way is refunded.",
  },
  payment_processor_error: {
    title: "Payment processor error",
    meaning: "The payment processor refused or failed the request (checkout, portal). Nothing was charged; try again later.",
  },
  service_unavailable: {
    title: "Service unavailable",
    meaning:
      "The service cannot answer now: it cannot reach its database (`GET /healthz`), or the job to cancel is still being started. Retry later (after `Retry-After` seconds when it is given).",
  },
};

/** The closed set of error codes as a Markdown table (code, HTTP status, meaning), in ERROR_STATUS order. */
export function errorCodeTable(): string {
  const rows = (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => `| \`${code}\` | ${ERROR_STATUS[code]} | ${ERROR_DOCS[code].meaning} |`);
  return ["| code | HTTP status | meaning |", "|---|---|---|", ...rows].join("\n");
}

const ErrorBodySchema = z
  .object({
    error: z
      .object({
        code: z
          .enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])
          .openapi({ description: `What went wrong, for programs: one of a closed set, and the HTTP status follows from it.\n\n${errorCodeTable()}` }),
        message: z
          .string()
          .openapi({ description: "What went wrong, for people: a sentence naming the field or the rule. Its wording may change; branch on `code`." }),
        details: z.unknown().optional().openapi({
          description:
            "For `invalid_request` from validation: the list of problems, each `{path, message}` (`path` is the dotted field path, empty for the body itself). Absent otherwise.",
        }),
      })
      .openapi({ description: "The error." }),
  })
  .openapi("Error", {
    description: "The body of every error response, whatever the operation. Every response, error or not, carries an `X-Request-Id` header.",
    example: {
      error: {
        code: "invalid_request",
        message: "Invalid request: question: must not be empty",
        details: [{ path: "question", message: "must not be empty" }],
      },
    },
  });

/** The limit's state, on every answer to an API key (middleware/api-key-auth.ts) and on every 429. */
export const RATE_LIMIT_STATE = {
  "RateLimit-Limit": { description: "Requests the limit allows per window.", schema: { type: "integer" as const, minimum: 1 } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" as const, minimum: 0 } },
  "RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" as const, minimum: 1 } },
};
const RETRY_AFTER = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const, minimum: 1 } },
  ...RATE_LIMIT_STATE,
};

/** The response entry of an error code, its title added to what its status already documents. */
function errorEntry<S>(existing: { description: string } | undefined, code: ErrorCode, schema: S) {
  const title = ERROR_DOCS[code].title;
  return {
    description: existing ? `${existing.description}; ${title}` : title,
    ...(ERROR_STATUS[code] === 429 ? { headers: RETRY_AFTER } : {}),
    content: { "application/json": { schema } },
  };
}

/** OpenAPI `responses` entries for the error codes a route can answer with. */
export function errorResponses(...codes: ErrorCode[]) {
  const responses: Record<number, ReturnType<typeof errorEntry<typeof ErrorBodySchema>>> = {};
  for (const code of codes) responses[ERROR_STATUS[code]] = errorEntry(responses[ERROR_STATUS[code]], code, ErrorBodySchema);
  return responses;
}

/**
 * A required JSON request body (required, so a missing or non-JSON body is rejected, not skipped),
 * with the example the reference shows (typed by the schema, and checked against it by a test).
 */
export function jsonBody<T extends z.ZodType>(schema: T, example?: z.input<T>) {
  return { required: true, content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } } };
}

/** A JSON response, with the example the reference shows (checked against the schema by a test). */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string, example?: z.input<T>) {
  return { description, content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } } };
}

export const noBody = (description: string) => ({ description });

export const JWT_SECURITY = [{ jwt: [] }];
export const API_KEY_SECURITY = [{ apiKey: [] }];
/** An operation that takes no credentials: said explicitly, so the document cannot mean "forgot". */
export const NO_SECURITY: { [scheme: string]: string[] }[] = [];

/**
 * What the middleware behind each security scheme can answer on any route that uses it: a bad
 * credential, a suspended account, and for API keys the per-key (and per-IP invalid-key) limit.
 * Written once here and added to every secured operation of the document, so a route cannot
 * forget them.
 */
const SCHEME_ERRORS: Record<string, ErrorCode[]> = {
  jwt: ["unauthorized", "account_suspended"],
  apiKey: ["unauthorized", "account_suspended", "rate_limited"],
};

interface DocumentedOperation {
  security?: Record<string, string[]>[];
  responses?: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

/**
 * Adds what every operation can answer without its route saying so: 500 `internal` (a failure of
 * ours, e.g. the database), each secured operation's scheme errors (descriptions merge when the
 * status is already listed), and on an API-key operation's successes the rate limit's state.
 */
export function documentImpliedResponses(paths: Record<string, Record<string, DocumentedOperation>>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      const responses = (operation.responses ??= {});
      for (const code of new Set<ErrorCode>([...schemes.flatMap((scheme) => SCHEME_ERRORS[scheme] ?? []), "internal"])) {
        const status = String(ERROR_STATUS[code]);
        const existing = responses[status];
        if (existing?.description.includes(ERROR_DOCS[code].title)) continue;
        responses[status] = errorEntry(existing, code, { $ref: "#/components/schemas/Error" });
      }
      if (!schemes.includes("apiKey")) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (status.startsWith("2")) response.headers = { ...response.headers, ...RATE_LIMIT_STATE };
      }
    }
  }
}

/** Path parameter `id`: must be a UUID (a malformed id is 400 `invalid_request`, an unknown one 404). */
export const IdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).openapi({
    param: { name: "id", in: "path" },
    description: "The resource's id (a UUID). A malformed id is 400 `invalid_request`; an unknown one, or another account's, is 404 `not_found`.",
    example: "3f0c9a8e-2d4b-4c1e-9f6a-7b8c9d0e1f2a",
  }),
});

/** A paged list's 200: the bare array, and the Link header to the next page (http/next-page.ts). */
export function pageResponse<T extends z.ZodType>(schema: T, description: string, example?: z.input<T>) {
  return { ...jsonResponse(schema, description, example), headers: NEXT_PAGE_HEADER };
}
