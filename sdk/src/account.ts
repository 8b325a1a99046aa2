import type { ApiPromise } from "./api-promise.js";
import type { Http, RequestOptions } from "./http.js";
import type { Balance, ModePrice, WebhookSendResult } from "./types.js";

/** `client.credits`: your credit balance; `client.credits()` is `client.credits.get()`. */
export type CreditsResource = CreditsCalls & ((options?: RequestOptions) => ApiPromise<Balance>);
export interface CreditsCalls {
  /** What is left (credits reserved by running jobs already deducted). */
  get(options?: RequestOptions): ApiPromise<Balance>;
}

/** `client.modes`: the research modes with their price and limits; `client.modes()` is `client.modes.list()`. */
export type ModesResource = ModesCalls & ((options?: RequestOptions) => ApiPromise<ModePrice[]>);
export interface ModesCalls {
  /** Public: no key needed, but it is sent. */
  list(options?: RequestOptions): ApiPromise<ModePrice[]>;
}

/** `client.webhooks`: your webhook endpoint's check. (Verifying a delivery you received: `verifyWebhook`.) */
export interface WebhooksResource {
  /** Sends a signed `webhook.test` event to `url` now and returns what your endpoint answered. */
  test(url: string, options?: RequestOptions): ApiPromise<WebhookSendResult>;
}

export interface AccountResources {
  credits: CreditsResource;
  modes: ModesResource;
  webhooks: WebhooksResource;
}

export function accountResources(http: Http): AccountResources {
  const credits: CreditsCalls = { get: (options = {}) => http.request(options, (init) => http.api.GET("/v1/credits", init)) };
  const modes: ModesCalls = { list: (options = {}) => http.request(options, (init) => http.api.GET("/api/billing/modes", init)) };
  return {
    credits: Object.assign((options?: RequestOptions) => credits.get(options), credits),
    modes: Object.assign((options?: RequestOptions) => modes.list(options), modes),
    webhooks: { test: (url, options = {}) => http.request(options, (init) => http.api.POST("/v1/webhooks/test", { body: { url }, ...init })) },
  };
}
