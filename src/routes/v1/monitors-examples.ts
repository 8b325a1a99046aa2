/** Examples of the /v1/monitors operations (the reference shows them). */

export const monitorCreateExample = {
  question: "Which countries have approved the new malaria vaccine R21?",
  mode: "standard" as const,
  schedule: { every: "1d" },
  webhook_url: "https://example.com/hooks/monitor",
  max_credits_per_run: 60,
};

export const monitorExample = {
  id: "7d2c1f7e-3b9a-4f51-9c8e-1a2b3c4d5e6f",
  question: monitorCreateExample.question,
  mode: "standard",
  include_domains: null,
  exclude_domains: null,
  collections: null,
  web: false,
  schedule: { every: "1d", cron: null },
  webhook_url: monitorCreateExample.webhook_url,
  max_credits_per_run: 60,
  credits_per_run: 60,
  status: "active" as const,
  paused_reason: null,
  next_run_at: "2026-11-29T09:00:00.000Z",
  last_run_at: "2026-11-28T09:00:00.000Z",
  created_at: "2026-11-20T09:00:00.000Z",
  updated_at: "2026-11-28T09:00:00.000Z",
};

export const monitorRunExample = {
  id: "0b6f8a2e-5c4d-4e3f-8a9b-7c6d5e4f3a2b",
  monitor_id: monitorExample.id,
  job_id: "3f0c9a8e-2d4b-4c1e-9f6a-7b8c9d0e1f2a",
  trigger: "schedule" as const,
  status: "succeeded" as const,
  credits_charged: 60,
  changed: true,
  diff: {
    previous_run_id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
    changed: true,
    sources_added: [{ url: "https://health.example.org/r21-approvals", title: "R21 approvals by country" }],
    sources_removed: [],
    answer: { changed: true, previous: "Ghana, Nigeria and Burkina Faso", current: "Ghana, Nigeria, Burkina Faso and Kenya" },
    claims_added: ["Kenya approved the R21 vaccine in November 2026"],
    claims_withdrawn: [],
  },
  created_at: "2026-11-28T09:00:02.000Z",
  finished_at: "2026-11-28T09:01:10.000Z",
};
