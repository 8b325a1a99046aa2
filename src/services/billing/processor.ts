import Stripe from "stripe";
import type { Config } from "../../env";
import { ApiError } from "../../lib/errors";
import { STRIPE_API_VERSION } from "./stripe-version";

/**
 * The payment processor, as the billing services use it: six operations. Stripe is its one
 * implementation (the `stripe` SDK on Workers: fetch for HTTP, SubtleCrypto for signatures);
 * another processor would implement this interface and its webhook events. Built only when
 * STRIPE_SECRET_KEY is set; otherwise the paths that need it answer 500
 * `payment_processor_not_configured` and everything else keeps working.
 */
export interface PaymentProcessor {
  /** A billing account for the user; the same key never creates two. */
  createCustomer(input: { email: string; name?: string; userId: string }, idempotencyKey: string): Promise<{ id: string }>;
  /** A hosted checkout page: one-off `payment` (a pack, saving the card) or a `subscription` (a plan). */
  createCheckout(input: CheckoutInput, idempotencyKey: string): Promise<{ id: string; url: string | null }>;
  /** The hosted portal (cards, invoices, plan changes). */
  createPortal(customer: string, returnUrl: string): Promise<{ url: string }>;
  /** The card the customer saved (their default, else their first), or null. */
  savedCard(customer: string): Promise<string | null>;
  /** Charges a saved card off-session, confirming at once. */
  chargeSavedCard(input: ChargeInput, idempotencyKey: string): Promise<{ id: string; status: string }>;
  /** Reports metered usage at `timestamp` (unix seconds); `identifier` deduplicates a resend. */
  reportUsage(input: UsageInput): Promise<void>;
}

export interface CheckoutInput {
  mode: "payment" | "subscription";
  customer: string;
  clientReferenceId: string;
  /** Price ids; a metered price has no quantity. */
  lineItems: { price: string; quantity?: number }[];
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
}

export interface UsageInput {
  eventName: string;
  identifier: string;
  customer: string;
  value: number;
  timestamp: number;
}

export interface ChargeInput {
  amountCents: number;
  customer: string;
  paymentMethod: string;
  description: string;
  metadata: Record<string, string>;
}

/** The Stripe implementation. */
class StripeProcessor implements PaymentProcessor {
  constructor(private readonly stripe: Stripe) {}

  async createCustomer(input: { email: string; name?: string; userId: string }, idempotencyKey: string) {
    const customer = await this.stripe.customers.create({ email: input.email, name: input.name, metadata: { user_id: input.userId } }, { idempotencyKey });
    return { id: customer.id };
  }

  async createCheckout(input: CheckoutInput, idempotencyKey: string) {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: input.mode,
        customer: input.customer,
        client_reference_id: input.clientReferenceId,
        line_items: input.lineItems,
        metadata: input.metadata,
        ...(input.mode === "payment"
          ? { payment_intent_data: { metadata: input.metadata, setup_future_usage: "off_session" as const } }
          : { subscription_data: { metadata: input.metadata } }),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      { idempotencyKey },
    );
    return { id: session.id, url: session.url };
  }

  async createPortal(customer: string, returnUrl: string) {
    const session = await this.stripe.billingPortal.sessions.create({ customer, return_url: returnUrl });
    return { url: session.url };
  }

  async savedCard(customer: string) {
    const found = await this.stripe.customers.retrieve(customer);
    const defaultMethod = "deleted" in found ? null : found.invoice_settings?.default_payment_method;
    const chosen = typeof defaultMethod === "string" ? defaultMethod : defaultMethod?.id;
    return chosen ?? (await this.stripe.paymentMethods.list({ customer, type: "card", limit: 1 })).data[0]?.id ?? null;
  }

  async chargeSavedCard(input: ChargeInput, idempotencyKey: string) {
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: "usd",
        customer: input.customer,
        payment_method: input.paymentMethod,
        off_session: true,
        confirm: true,
        description: input.description,
        metadata: input.metadata,
      },
      { idempotencyKey },
    );
    return { id: intent.id, status: intent.status };
  }

  async reportUsage(input: UsageInput) {
    await this.stripe.billing.meterEvents.create({
      event_name: input.eventName,
      identifier: input.identifier,
      payload: { stripe_customer_id: input.customer, value: String(input.value) },
      timestamp: input.timestamp,
    });
  }
}

const clients = new Map<string, PaymentProcessor>();

export function processorClient(config: Config): PaymentProcessor | null {
  const key = config.STRIPE_SECRET_KEY;
  if (!key) return null;
  let client = clients.get(key);
  if (!client) {
    client = new StripeProcessor(
      new Stripe(key, {
        // Pinned, not the account's default: the handlers read this version's shapes (stripe-version.ts).
        apiVersion: STRIPE_API_VERSION,
        // The runtime's fetch looked up at each call, not captured when the client is made: a client
        // cached by the isolate keeps working whatever wraps fetch later (MSW in the tests).
        httpClient: Stripe.createFetchHttpClient((input, init) => fetch(input, init)),
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: "deep-research-api" },
      }),
    );
    clients.set(key, client);
  }
  return client;
}

export function requireProcessor(config: Config): PaymentProcessor {
  const client = processorClient(config);
  if (!client) {
    throw new ApiError("payment_processor_not_configured", "Payments are not configured on this server (STRIPE_SECRET_KEY is unset).");
  }
  return client;
}

/**
 * Whether a failed processor call surely changed nothing there: the processor answered with a
 * 4xx (invalid, unauthorized, rate limited), so nothing was recorded. A network error, a timeout
 * or a 5xx may have been recorded before it failed.
 */
export function failureIsDefinite(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500;
}

/** The processor price id held by the variable a catalog row names (e.g. STRIPE_PRICE_STARTER). */
export function priceIdFrom(config: Config, variable: string | null): string | null {
  return (variable && config.prices[variable]) || null;
}
