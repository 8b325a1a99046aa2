import { createDb, type Db } from "../db/client";
import { type Config, type Env, loadConfig } from "../env";
import { createEmailSender, type EmailSender } from "./email";
import { linkOrigin } from "./link-origin";

/** Work that may finish after the response is sent (the runtime's `waitUntil`). */
export type Defer = (work: Promise<unknown>) => void;

/**
 * What every service may need, built once per request by the `services` middleware. A service
 * takes this object, or declares the part it uses with `Pick<Deps, ...>`; never Hono's context.
 * The entry points outside a request (queue consumers, cron, the job object) build the part they
 * need from the runtime's `env`.
 */
export interface Deps {
  db: Db;
  /** The validated configuration (env.ts). */
  config: Config;
  email: EmailSender;
  /** The worker's bindings: Durable Objects, queues, D1, and the variables providers read. */
  env: Env;
  defer: Defer;
  /**
   * Where links to the dashboard point (emails, processor returns): DASHBOARD_URL, else this
   * request's origin when its host may carry links (link-origin.ts), else null: such a request
   * is refused (`requireLinkOrigin`) rather than mail a link to a host the caller chose.
   */
  dashboardUrl: string | null;
}

export function createDeps(env: Env, defer: Defer, requestUrl: string): Deps {
  const config = loadConfig(env);
  const db = createDb(env.DB);
  return { db, config, env, defer, email: createEmailSender(db, config, defer), dashboardUrl: linkOrigin(config, requestUrl) };
}
