import Stripe from "stripe";
import type { Config, Env } from "../../env";
import { ApiError } from "../../lib/errors";

/**
 * The payment processor client: the `stripe` SDK on Workers (fetch for HTTP, SubtleCrypto for
 * signatures). Built only when STRIPE_SECRET_KEY is set; otherwise the paths that need it answer
 * 500 `payment_processor_not_configured` and everything else keeps working.
 */
export type Processor = Stripe;

const clients = new Map<string, Stripe>();

export function processorClient(config: Config): Processor | null {
  const key = config.STRIPE_SECRET_KEY;
  if (!key) return null;
  let client = clients.get(key);
  if (!client) {
    client = new Stripe(key, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: "deep-research-api" },
    });
    clients.set(key, client);
  }
  return client;
}

export function requireProcessor(config: Config): Processor {
  const client = processorClient(config);
  if (!client) {
    throw new ApiError("payment_processor_not_configured", "Payments are not configured on this server (STRIPE_SECRET_KEY is unset).");
  }
  return client;
}

/** The processor price id held by the variable a catalog row names (e.g. STRIPE_PRICE_STARTER). */
export function priceIdFrom(env: Env, variable: string | null): string | null {
  if (!variable) return null;
  const value = (env as unknown as Record<string, unknown>)[variable];
  return typeof value === "string" && value.length > 0 ? value : null;
}
