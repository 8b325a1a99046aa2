import type { Config } from "../env";
import { ApiError } from "../lib/errors";

/** Credits every new account starts with (the signup bonus). */
export const SIGNUP_BONUS_CREDITS = 500;

/**
 * What an account whose email is not verified may spend (issue 39): signups are free and limited
 * per address, not per person, so without a bound 20 signups an hour bought 10,000 credits of
 * research (upstream searches and model calls we pay for). Until the email is verified, research
 * may not take the balance below the signup bonus less UNVERIFIED_SPEND_LIMIT credits (default
 * 100 in production: the README's first lite and standard jobs fit). Credits the account bought
 * are above that floor and spendable; a paid plan's overage is not bounded (a card is on file).
 *
 * Development has no bound unless UNVERIFIED_SPEND_LIMIT is set: `npm start` mails nothing (its
 * emails land in the outbox only an admin reads), so a newcomer could never lift it.
 */
export function unverifiedFloor(config: Pick<Config, "ENVIRONMENT" | "UNVERIFIED_SPEND_LIMIT">): number | null {
  const limit = config.UNVERIFIED_SPEND_LIMIT ?? (config.ENVIRONMENT === "production" ? DEFAULT_PRODUCTION_LIMIT : null);
  return limit === null ? null : Math.max(0, SIGNUP_BONUS_CREDITS - limit);
}

const DEFAULT_PRODUCTION_LIMIT = 100;

/** 403 `email_not_verified`: the balance could pay, but not without crossing the unverified floor. */
export function emailNotVerified(needed: number, balance: number, floor: number): ApiError {
  const spendable = Math.max(0, balance - floor);
  return new ApiError(
    "email_not_verified",
    `Verify your email address to spend more: until it is verified, an account may spend ${SIGNUP_BONUS_CREDITS - floor} of its ${SIGNUP_BONUS_CREDITS} signup credits. This needs ${needed} credits and ${spendable} can be spent now. Open the link in the email sent at sign-up (a password reset also verifies the address).`,
  );
}
