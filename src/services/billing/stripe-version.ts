/**
 * The one Stripe API version this service speaks, checked 2026-11-27 against the installed SDK
 * (stripe 23.1.0, node_modules/stripe/cjs/apiVersion.js) and https://docs.stripe.com/api-versions.
 *
 * It is pinned on the client (processor.ts `apiVersion`, typed as the SDK's LatestApiVersion, so
 * an SDK upgrade fails to compile until this line moves with it) and must be the version of the
 * webhook endpoint (README "Billing"; scripts/deploy.mjs prints it): webhook payloads come in the
 * endpoint's version, else the account's default (https://docs.stripe.com/webhooks/versioning).
 * The event handlers read shapes that exist only from 2025-03-31.basil on
 * (`invoice.parent.subscription_details`, `line.pricing.price_details.price`, the subscription
 * item's `current_period_*`); on an older version `invoice.paid` would be ignored and plan
 * credits never granted, so an event of any other version is refused (events.ts), not guessed at.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive" as const;

/**
 * Versions whose events the handlers are known to read correctly. Upgrading: add the new version
 * here, deploy, switch the endpoint (or a second endpoint) to it, then drop the old one.
 */
export const ACCEPTED_EVENT_API_VERSIONS: ReadonlySet<string> = new Set([STRIPE_API_VERSION]);
