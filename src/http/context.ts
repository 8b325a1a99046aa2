import type { Caller } from "../db/schema";
import type { Env } from "../env";
import type { Deps } from "../services/deps";

/**
 * What every request carries through Hono's context: its dependencies and who is calling. Read
 * them with `c.get(name)`: Hono's `c.var` copies every variable into a new object at each access.
 */
export interface AppVariables {
  requestId: string;
  /** This request's dependencies (middleware/services.ts). */
  deps: Deps;
  /** Set by the JWT or API-key middleware; without the balance (see Caller). */
  user: Caller;
  /** The session (refresh-token family) of a JWT caller. */
  sessionId: string;
  /** The API key of a /v1 caller. */
  apiKeyId: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
