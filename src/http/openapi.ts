import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { ApiError, ERROR_STATUS, type ErrorCode } from "../lib/errors";

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

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).openapi({ description: "The closed set of error codes (the HTTP status follows from the code)." }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .openapi("Error");

const DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  invalid_request: "Invalid request",
  unauthorized: "Missing or invalid credentials",
  invalid_credentials: "Invalid credentials",
  insufficient_credits: "Insufficient credits",
  storage_limit_exceeded: "Storage limit of the plan reached",
  document_limit_exceeded: "Too many documents in the collection",
  forbidden: "Not allowed",
  account_suspended: "Account suspended",
  not_found: "Not found",
  email_taken: "Email already registered",
  rate_limited: "Too many requests",
  payload_too_large: "Too large",
  unsupported_media_type: "Unsupported file type",
  payment_processor_not_configured: "Payment processor not configured",
  internal: "Internal error",
};

/** OpenAPI `responses` entries for the error codes a route can answer with. */
export function errorResponses(...codes: ErrorCode[]) {
  const responses: Record<number, { description: string; content: { "application/json": { schema: typeof ErrorBodySchema } } }> = {};
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    const existing = responses[status];
    const description = DESCRIPTIONS[code] ?? code;
    responses[status] = {
      description: existing ? `${existing.description}; ${description}` : description,
      content: { "application/json": { schema: ErrorBodySchema } },
    };
  }
  return responses;
}

/** A required JSON request body (required, so a missing or non-JSON body is rejected, not skipped). */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } };
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

export const noBody = (description: string) => ({ description });

export const JWT_SECURITY = [{ jwt: [] }];
export const API_KEY_SECURITY = [{ apiKey: [] }];

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
  responses?: Record<string, { description: string; content?: Record<string, unknown> }>;
}

/**
 * Adds the errors every operation can answer without its route saying so: 500 `internal` (a
 * failure of ours, e.g. the database), and each secured operation's scheme errors. Descriptions
 * merge when the status is already listed.
 */
export function documentImpliedErrors(paths: Record<string, Record<string, DocumentedOperation>>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      const responses = (operation.responses ??= {});
      for (const code of new Set<ErrorCode>([...schemes.flatMap((scheme) => SCHEME_ERRORS[scheme] ?? []), "internal"])) {
        const status = String(ERROR_STATUS[code]);
        const description = DESCRIPTIONS[code] ?? code;
        const existing = responses[status];
        if (existing?.description.includes(description)) continue;
        responses[status] = {
          description: existing ? `${existing.description}; ${description}` : description,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        };
      }
    }
  }
}

/** Path parameter `id`: must be a UUID (a malformed id is 400 `invalid_request`, an unknown one 404). */
export const IdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).openapi({ param: { name: "id", in: "path" } }),
});
