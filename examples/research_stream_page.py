#!/usr/bin/env python3
# Research, stream and page with the Python SDK:
#   DEEP_RESEARCH_API_KEY=dr_... DEEP_RESEARCH_BASE_URL=http://127.0.0.1:8787 PYTHONPATH=sdk-python python3 examples/research_stream_page.py
"""A Python program researching, streaming and paging through the Deep Research API."""
from deep_research import DeepResearch

client = DeepResearch()  # DEEP_RESEARCH_API_KEY, DEEP_RESEARCH_BASE_URL

# 1. Research: run() submits and returns the result (following an async job to its end).
result = client.research.run("What did Franklin Roosevelt say about the four freedoms?", mode="lite")
print("run:", result["status"], "charged", result["credits_charged"], "| basis:", result["charge_basis"]["rule"])
print(result["brief"].split("\n")[0][:300])
for n, source in enumerate(result["sources"][:3], 1):
    print(f"  [{n}] {source['title']}  {source['url']}")

# 2. Stream an asynchronous job's events as they happen.
accepted = client.research.create("How did presidents talk about tariffs in the 19th century?", mode="standard", async_=True)
print("\ncreate:", accepted["id"], accepted["status"])
kinds = {}
for event in client.research.stream(accepted["id"]):
    kinds[event["event"]] = kinds.get(event["event"], 0) + 1
    if event["event"] == "result":
        print("stream result:", event["data"]["status"], "charged", event["data"]["credits_charged"])
        print(event["data"]["brief"].split("\n")[0][:300])
print("events:", kinds)

# 3. Page through every job (the Link header), two a page.
for question in ("What did Lincoln say about the Union?", "What did Kennedy say about the Moon?"):
    client.research.run(question, mode="lite")
pages = 0
page = client.research.list(limit=2)
jobs = []
while page is not None:
    pages += 1
    jobs += page.data
    page = page.next_page() if page.has_next_page() else None
print("pages walked by hand:", pages)
jobs = list(client.research.list(limit=2))
print("list (auto-paging):", len(jobs), "jobs:", [job["question"][:30] for job in jobs])
raw = client.research.with_raw_response.get(accepted["id"])
print("raw:", raw.status_code, raw.headers.get("content-type"), "request id", raw.request_id)
print("credits:", {k: v for k, v in client.credits.get().items() if not isinstance(v, (list, dict))})
