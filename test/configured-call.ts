import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../src/index";
import { BASE, type CallOptions, testRequest } from "./helpers";
import { recordExchange } from "./setup/response-contract";

/** A JWT secret production accepts (the suite's own is refused there as a placeholder). */
export const PRODUCTION_JWT_SECRET = "f3b1c9a07e5d2486b0c4e8a1d6f29357ac0e1b4d7f8a2c6e9b3d5f7a1c0e4b82";

/**
 * `call()` against the worker under another configuration: the suite's bindings with `vars`
 * changed (undefined removes one, as an unset variable). For what only a configuration shows
 * (links without DASHBOARD_URL, production's rules). The response is checked against
 * /openapi.json like every `call()`; the request's background work has finished when it returns.
 */
export async function callConfigured(vars: Record<string, string | undefined>, path: string, options: CallOptions & { base?: string } = {}): Promise<Response> {
  const bindings: Record<string, unknown> = { ...env, ...vars };
  for (const [name, value] of Object.entries(vars)) if (value === undefined) delete bindings[name];
  const configured = bindings as unknown as typeof env;
  const request = testRequest((options.base ?? BASE) + path, options);
  const context = createExecutionContext();
  const response = await worker.fetch(request, configured, context);
  await waitOnExecutionContext(context);
  recordExchange(request, response);
  return response;
}
