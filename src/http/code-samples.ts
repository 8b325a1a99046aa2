/**
 * TypeScript and Python samples of the public operations, written with the SDKs (sdk/, the
 * `deep-research` npm package; sdk-python/, the `deep-research` Python package imported as
 * `deep_research`), published as `x-codeSamples` so the reference at /docs shows them beside its
 * generated curl, Node and Python (requests) snippets. Keyed by "METHOD path" as in the document.
 */
const SETUP = `import { DeepResearch } from "deep-research";

// The key from DEEP_RESEARCH_API_KEY (or pass { apiKey, baseUrl }).
const client = new DeepResearch();`;

const SAMPLES: Record<string, string> = {
  "post /v1/research": `${SETUP}

// Submits (with an Idempotency-Key) and waits for the result, following the job's events when it runs async.
const result = await client.research("How did presidents describe tariffs in the 19th century?", {
  mode: "standard",
  onProgress: (p) => console.log(p.stage, p.wave, p.pages, p.cost_usd),
});
console.log(result.brief);
result.sources.forEach((source, i) => console.log(\`[\${i + 1}] \${source.title} \${source.url}\`));`,
  "post /v1/research/quote": `${SETUP}

// What the same submit would reserve and run within, and whether the balance covers it; nothing runs.
const quote = await client.research.quote("How did presidents describe tariffs in the 19th century?", { mode: "pro" });
if (!quote.covered) console.log(quote.insufficient_credits);`,
  "post /v1/research/plan": `${SETUP}

// The plan the job would run (free, nothing runs): review and edit it, then run exactly that plan.
const question = "What ended the Nullification Crisis?";
const plan = await client.research.plan(question, { mode: "standard" });
console.log(plan.sub_questions, plan.queries, plan.quote.max_charge_credits);
const result = await client.research(question, {
  mode: "standard",
  planId: plan.plan_id,
  queries: [...plan.queries.slice(0, plan.max_queries - 1), "Compromise Tariff of 1833"],
});
console.log(result.brief);`,
  "get /v1/research": `${SETUP}

const firstPage = await client.research.list({ status: "succeeded", limit: 20 });
// Every job, page after page (the Link header's next page, fetched as needed):
for await (const job of client.research.list({ status: "failed" })) console.log(job.id, job.question);`,
  "get /v1/research/{id}": `${SETUP}

const job = await client.research.get("JOB_ID");
if (job.status === "succeeded") console.log(job.brief);`,
  "delete /v1/research/{id}": `${SETUP}

const cancelled = await client.research.cancel("JOB_ID"); // charged only for the work already done
console.log(cancelled.status, cancelled.credits_charged);`,
  "get /v1/research/{id}/events": `${SETUP}

// Reconnects with Last-Event-ID on its own: no event is lost or repeated.
for await (const event of client.research.stream("JOB_ID")) {
  if (event.event === "progress") console.log(event.data.stage, event.data.cost_usd);
  if (event.event === "source") console.log("read", event.data.url);
  if (event.event === "result") console.log(event.data.brief);
}`,
  "get /v1/research/{id}/deliveries": `${SETUP}

const attempts = await client.research.deliveries("JOB_ID");`,
  "get /v1/credits": `${SETUP}

const { credits, usd } = await client.credits.get();`,
  "post /v1/monitors": `${SETUP}

// Researched again every day; monitor.changed is POSTed to the webhook only when something changed.
const monitor = await client.monitors.create({
  question: "Which countries have approved the R21 malaria vaccine?",
  mode: "standard",
  schedule: { every: "1d" },
  webhook_url: "https://example.com/hooks/monitor",
});`,
  "get /v1/monitors": `${SETUP}

for await (const monitor of client.monitors.list()) console.log(monitor.id, monitor.status, monitor.next_run_at);`,
  "get /v1/monitors/{id}": `${SETUP}

const monitor = await client.monitors.get("MONITOR_ID");
if (monitor.status === "paused") console.log(monitor.paused_reason);`,
  "patch /v1/monitors/{id}": `${SETUP}

await client.monitors.pause("MONITOR_ID");
await client.monitors.update("MONITOR_ID", { status: "active", schedule: { cron: "0 9 * * 1-5" } });`,
  "delete /v1/monitors/{id}": `${SETUP}

await client.monitors.delete("MONITOR_ID");`,
  "get /v1/monitors/{id}/runs": `${SETUP}

for await (const run of client.monitors.runs("MONITOR_ID")) {
  if (run.diff?.changed) console.log(run.created_at, run.diff.sources_added, run.diff.answer);
}`,
  "post /v1/monitors/{id}/run": `${SETUP}

const run = await client.monitors.run("MONITOR_ID"); // a research job, charged as one
const job = await client.research.get(run.job_id);`,
  "post /v1/collections": `${SETUP}

const { id } = await client.collections.create({ name: "Board papers" });`,
  "get /v1/collections": `${SETUP}

for await (const collection of client.collections.list()) console.log(collection.id, collection.name);`,
  "post /v1/collections/{id}/documents": `${SETUP}

// Files (multipart: .pdf, .html, .md, .txt, .jsonl) or JSON documents.
await client.collections.upload("COLLECTION_ID", [{ name: "notes.md", data: "# Notes\\n…" }]);
await client.collections.addDocuments("COLLECTION_ID", [{ title: "Memo", text: "…" }]);
const answer = await client.research("What did the board decide?", { collections: ["COLLECTION_ID"] });`,
  "delete /v1/collections/{id}": `${SETUP}

await client.collections.delete("COLLECTION_ID");`,
};

const PYTHON_SETUP = `from deep_research import DeepResearch

# The key from DEEP_RESEARCH_API_KEY (or pass api_key=..., base_url=...).
client = DeepResearch()`;

const PYTHON_SAMPLES: Record<string, string> = {
  "post /v1/research": `${PYTHON_SETUP}


def show_progress(event):
    if event["event"] == "progress":
        print(event["data"]["stage"], event["data"]["wave"], event["data"]["pages"], event["data"]["cost_usd"])


# Submits (with an Idempotency-Key) and waits for the result, following the job's events when it runs async.
result = client.research.run(
    "How did presidents describe tariffs in the 19th century?",
    mode="standard",
    on_event=show_progress,
)
print(result["brief"])
for n, source in enumerate(result["sources"], start=1):
    print(f"[{n}] {source['title']} {source['url']}")`,
  "post /v1/research/quote": `${PYTHON_SETUP}

# What the same submit would reserve and run within, and whether the balance covers it; nothing runs.
quote = client.research.quote("How did presidents describe tariffs in the 19th century?", mode="pro")
if not quote["covered"]:
    print(quote["insufficient_credits"])`,
  "post /v1/research/plan": `${PYTHON_SETUP}

# The plan the job would run (free, nothing runs): review and edit it, then run exactly that plan.
question = "What ended the Nullification Crisis?"
plan = client.research.plan(question, mode="standard")
print(plan["sub_questions"], plan["queries"], plan["quote"]["max_charge_credits"])
queries = plan["queries"][: plan["max_queries"] - 1] + ["Compromise Tariff of 1833"]
result = client.research.run(question, mode="standard", plan_id=plan["plan_id"], queries=queries)
print(result["brief"])`,
  "get /v1/research": `${PYTHON_SETUP}

first_page = client.research.list(status="succeeded", limit=20).data
# Every job, page after page (the Link header's next page, fetched as needed):
for job in client.research.list(status="failed"):
    print(job["id"], job["question"])`,
  "get /v1/research/{id}": `${PYTHON_SETUP}

job = client.research.get("JOB_ID")
if job["status"] == "succeeded":
    print(job["brief"])`,
  "delete /v1/research/{id}": `${PYTHON_SETUP}

cancelled = client.research.cancel("JOB_ID")  # charged only for the work already done
print(cancelled["status"], cancelled["credits_charged"])`,
  "get /v1/research/{id}/events": `${PYTHON_SETUP}

# Reconnects with Last-Event-ID on its own: no event is lost or repeated.
for event in client.research.stream("JOB_ID"):
    if event["event"] == "progress":
        print(event["data"]["stage"], event["data"]["cost_usd"])
    elif event["event"] == "source":
        print("read", event["data"]["url"])
    elif event["event"] == "result":
        print(event["data"]["brief"])`,
  "get /v1/research/{id}/deliveries": `${PYTHON_SETUP}

attempts = client.research.deliveries("JOB_ID")`,
  "get /v1/credits": `${PYTHON_SETUP}

balance = client.credits.get()
print(balance["credits"], balance["usd"])`,
  "post /v1/monitors": `${PYTHON_SETUP}

# Researched again every day; monitor.changed is POSTed to the webhook only when something changed.
monitor = client.monitors.create(
    "Which countries have approved the R21 malaria vaccine?",
    mode="standard",
    schedule={"every": "1d"},
    webhook_url="https://example.com/hooks/monitor",
)`,
  "get /v1/monitors": `${PYTHON_SETUP}

for monitor in client.monitors.list():
    print(monitor["id"], monitor["status"], monitor["next_run_at"])`,
  "get /v1/monitors/{id}": `${PYTHON_SETUP}

monitor = client.monitors.get("MONITOR_ID")
if monitor["status"] == "paused":
    print(monitor["paused_reason"])`,
  "patch /v1/monitors/{id}": `${PYTHON_SETUP}

client.monitors.pause("MONITOR_ID")
client.monitors.update("MONITOR_ID", status="active", schedule={"cron": "0 9 * * 1-5"})`,
  "delete /v1/monitors/{id}": `${PYTHON_SETUP}

client.monitors.delete("MONITOR_ID")`,
  "get /v1/monitors/{id}/runs": `${PYTHON_SETUP}

for run in client.monitors.runs("MONITOR_ID"):
    if run["diff"] and run["diff"]["changed"]:
        print(run["created_at"], run["diff"]["sources_added"], run["diff"]["answer"])`,
  "post /v1/monitors/{id}/run": `${PYTHON_SETUP}

run = client.monitors.run("MONITOR_ID")  # a research job, charged as one
job = client.research.get(run["job_id"])`,
  "post /v1/collections": `${PYTHON_SETUP}

collection_id = client.collections.create("Board papers")["id"]`,
  "get /v1/collections": `${PYTHON_SETUP}

for collection in client.collections.list():
    print(collection["id"], collection["name"])`,
  "post /v1/collections/{id}/documents": `${PYTHON_SETUP}

# Files (multipart: .pdf, .html, .md, .txt, .jsonl: a path, an open file, or (name, content)) or JSON documents.
client.collections.upload("COLLECTION_ID", ["minutes.pdf", ("notes.md", b"# Notes\\n...")])
client.collections.add_documents("COLLECTION_ID", [{"title": "Memo", "text": "..."}])
answer = client.research.run("What did the board decide?", collections=["COLLECTION_ID"])`,
  "delete /v1/collections/{id}": `${PYTHON_SETUP}

client.collections.delete("COLLECTION_ID")`,
};

/** Adds each operation's TypeScript and Python samples (x-codeSamples) to the document's paths. */
export function attachCodeSamples(paths: Record<string, Record<string, Record<string, unknown>>>): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const key = `${method} ${path}`;
      const samples = [
        ...(SAMPLES[key] ? [{ lang: "TypeScript", label: "TypeScript (SDK)", source: SAMPLES[key] }] : []),
        ...(PYTHON_SAMPLES[key] ? [{ lang: "Python", label: "Python (SDK)", source: PYTHON_SAMPLES[key] }] : []),
      ];
      if (samples.length) operation["x-codeSamples"] = samples;
    }
  }
}

/** The operations that have a TypeScript sample (a test checks each one compiles against the SDK). */
export const CODE_SAMPLES: Readonly<Record<string, string>> = SAMPLES;

/** The operations' Python samples (a test compiles each one and checks its calls and keys against the Python SDK). */
export const PYTHON_CODE_SAMPLES: Readonly<Record<string, string>> = PYTHON_SAMPLES;
