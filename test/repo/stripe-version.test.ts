/**
 * The Stripe API version is written once (src/services/billing/stripe-version.ts) and must agree
 * with what else names it: the installed SDK (its types describe that version), the deploy's
 * prompt and the README's webhook endpoint instructions (issue 41, item 3).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STRIPE_API_VERSION as deployVersion } from "../../scripts/deploy.mjs";
import { STRIPE_API_VERSION } from "../../src/services/billing/stripe-version";

describe("the pinned Stripe API version", () => {
  it("is the installed SDK's, the deploy's and the README's", () => {
    // The SDK's own constant (its package exports do not reach the file, so it is read as text).
    const sdk = /ApiVersion = '([^']+)'/.exec(readFileSync("node_modules/stripe/cjs/apiVersion.js", "utf8"))?.[1];
    expect(sdk).toBe(STRIPE_API_VERSION);
    expect(deployVersion).toBe(STRIPE_API_VERSION);
    const readme = readFileSync("README.md", "utf8");
    expect(readme).toContain(`**The endpoint's API version must be \`${STRIPE_API_VERSION}\`**`);
    expect(readme).toContain(`api_version=${STRIPE_API_VERSION}`);
  });
});
