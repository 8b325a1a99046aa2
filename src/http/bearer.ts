import type { Context } from "hono";
import { ApiError } from "../lib/errors";

/** The token of an `Authorization: Bearer <token>` header, else 401. */
export function bearerToken(c: Context): string {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw ApiError.unauthorized("Missing bearer credentials in the Authorization header.");
  return match[1];
}
