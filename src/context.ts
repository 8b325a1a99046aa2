import type { Db } from "./db/client";
import type { UserRow } from "./db/schema";
import type { Config, Env } from "./env";
import type { EmailSender } from "./services/email";

/** What every request carries through Hono's context: validated config and per-request services. */
export interface AppVariables {
  requestId: string;
  config: Config;
  db: Db;
  email: EmailSender;
  /** Set by the JWT or API-key middleware. */
  user: UserRow;
  /** The session (refresh-token family) of a JWT caller. */
  sessionId: string;
  /** The API key of a /v1 caller. */
  apiKeyId: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
