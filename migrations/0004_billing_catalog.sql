-- The credit packs and plans of the service spec (1 credit = 0.01 USD). processor_price_env names
-- the variable holding the payment processor's price id; it is never returned by the listings.
INSERT INTO `packs` (`id`, `name`, `credits`, `price_cents`, `blurb`, `processor_price_env`, `sort_order`) VALUES
  ('starter', 'Starter', 500, 500, 'Try it on real questions: about 8 standard or 33 lite research briefs. Credits never expire.', 'STRIPE_PRICE_STARTER', 1),
  ('handful', 'Handful', 2000, 2000, 'For a side project or a week of prototyping: about 33 standard or 10 pro briefs.', 'STRIPE_PRICE_HANDFUL', 2),
  ('workshop', 'Workshop', 5000, 5000, 'For a team putting research into a product: about 83 standard or 25 pro briefs.', 'STRIPE_PRICE_WORKSHOP', 3),
  ('warehouse', 'Warehouse', 20000, 20000, 'The pay-as-you-go ceiling: 100 pro briefs. Using this much every month? A plan costs less.', 'STRIPE_PRICE_WAREHOUSE', 4);
--> statement-breakpoint
INSERT INTO `plans` (`id`, `name`, `monthly_price_cents`, `included_credits`, `overage_micros`, `breakeven_credits`, `blurb`, `features`, `processor_price_env`, `processor_overage_price_env`, `sort_order`) VALUES
  ('free', 'Free', 0, 500, 0, 0,
   'Explore the API without a card. Top up with packs whenever you need more.',
   '["500 free credits to start","Every research mode: lite, standard, pro and max","Sync, async, SSE streaming and signed webhooks","Typed JSON output from your own schema","Community support"]',
   NULL, NULL, 1),
  ('developer', 'Developer', 2900, 4000, 9000, 2900,
   'For one developer shipping a research feature: 4,000 credits a month for $29.',
   '["4,000 credits every month","Overage at $0.009 per credit instead of a failed call","Everything in Free","Email support within 2 business days"]',
   'STRIPE_PRICE_DEVELOPER', 'STRIPE_PRICE_DEVELOPER_OVERAGE', 2),
  ('startup', 'Startup', 14900, 25000, 8000, 14900,
   'For a product with research in its core loop: 25,000 credits a month for $149.',
   '["25,000 credits every month","Overage at $0.008 per credit","Everything in Developer","Priority email support within 1 business day"]',
   'STRIPE_PRICE_STARTUP', 'STRIPE_PRICE_STARTUP_OVERAGE', 3),
  ('growth', 'Growth', 49900, 100000, 7000, 49900,
   'For research at scale: 100,000 credits a month for $499, the lowest price per credit.',
   '["100,000 credits every month","Overage at $0.007 per credit","Everything in Startup","Shared Slack channel and a named engineer"]',
   'STRIPE_PRICE_GROWTH', 'STRIPE_PRICE_GROWTH_OVERAGE', 4);
