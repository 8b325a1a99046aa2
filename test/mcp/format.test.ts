import { describe, expect, it } from "vitest";
import type { ResearchResult } from "../../src/research/service";
import { progressMessage, resultText } from "../../src/routes/mcp/format";

const base: ResearchResult = {
  id: "7f1c2a34-5b6d-4e8f-9a0b-1c2d3e4f5a6b",
  status: "succeeded",
  question: "What ended the Nullification Crisis?",
  brief: "The Compromise Tariff of 1833 ended it [1], after Jackson threatened force [2].",
  answer: { text: "The Compromise Tariff of 1833", confidence: "high", citations: [0] },
  typed: null,
  sources: [
    {
      url: "https://history.example.org/compromise",
      title: "Compromise Tariff",
      domain: "history.example.org",
      published_at: "2024-05-01",
      author: "Jane Doe",
    },
    { url: "https://history.example.org/jackson", title: "", domain: "history.example.org" },
  ],
  citations: [],
  credits_charged: 60,
  charge_basis: { rule: "mode_price", reason: "Charged the standard price, 60 credits ($0.60): the brief cites 2 sources that address the question." },
  cost_usd: 0.0871,
  created_at: "2026-01-01T00:00:00.000Z",
  completed_at: "2026-01-01T00:00:04.000Z",
  error: null,
  latency_ms: 4200,
  wave_count: 2,
  previous_job_id: null,
  thread: [],
  partial: false,
};

describe("the tools' words", () => {
  it("a succeeded job: its short answer and confidence first, then outcome and cost, the brief, and its sources numbered as the brief cites them", () => {
    expect(resultText(base)).toBe(
      [
        "Answer (high confidence): The Compromise Tariff of 1833 [1]",
        `Research job ${base.id} succeeded: charged 60 credits, $0.0871 of work, 4.2 s.`,
        "Question: What ended the Nullification Crisis?",
        base.brief,
        "Sources:\n[1] Compromise Tariff (history.example.org; by Jane Doe; published 2024-05-01): https://history.example.org/compromise\n" +
          "[2] https://history.example.org/jackson (history.example.org): https://history.example.org/jackson",
      ].join("\n\n"),
    );
  });

  it("a model's report goes to the model whole, its sections and groups as written, then the sources its [n] cite", () => {
    const brief = "It ended in 1833 [1].\n\n## Findings\n**Compromise Tariff**\n- Rates fell over ten years [1].\n\n## Open questions\n- Was force needed [2]?";
    const parts = resultText({ ...base, brief }).split("\n\n");
    expect(parts.slice(3, 6)).toEqual(brief.split("\n\n"));
    expect(parts[6]).toMatch(/^Sources:\n\[1\] Compromise Tariff/);
  });

  it("a succeeded job without a short answer says plainly that the sources do not answer, before anything else", () => {
    const text = resultText({ ...base, answer: null, brief: "The sources read do not cover the 1833 tariff." });
    expect(text.split("\n\n")[0]).toBe("Answer: none. The sources read do not answer this question.");
    expect(text).toContain("The sources read do not cover the 1833 tariff.");
    // Each confidence is named, and an answer resting on several sources cites each as the brief does.
    expect(resultText({ ...base, answer: { text: "1833", confidence: "low", citations: [1, 0] } })).toMatch(/^Answer \(low confidence\): 1833 \[2\]\[1\]\n\n/);
    expect(resultText({ ...base, answer: { text: "yes", confidence: "medium", citations: [] } })).toMatch(/^Answer \(medium confidence\): yes\n\n/);
  });

  it("typed output is shown as JSON; failed, cancelled and running jobs say where they stand", () => {
    expect(resultText({ ...base, typed: { year: 1833 } })).toContain('Typed output:\n{\n  "year": 1833\n}');
    // A job that did not succeed has no answer either way: it opens with where it stands.
    const bare = { ...base, brief: null, answer: null, sources: [], latency_ms: null };
    expect(resultText({ ...bare, status: "failed", credits_charged: 0, error: "No sources found." })).toMatch(
      /^Research job \S+ failed: No sources found\. Charged 0 credits\./,
    );
    expect(resultText({ ...bare, status: "cancelled", credits_charged: 3 })).toMatch(/was cancelled\. Charged 3 credits for the work already done\./);
    expect(resultText({ ...bare, status: "running" })).toMatch(/is running\. Ask again with get_research and id /);
  });

  it("a cancelled job's partial brief is given with its sources, and said to be partial", () => {
    const text = resultText({ ...base, status: "cancelled", answer: null, partial: true, credits_charged: 2 });
    expect(text).toContain("was cancelled");
    expect(text).toContain("Partial brief: the job stopped before the end of its research; this brief is written only from the 2 source(s) it had read.");
    expect(text).toContain(base.brief!);
    expect(text).not.toContain("Answer");
  });

  it("progress messages for status, progress, source and error events; none for the result", () => {
    expect(progressMessage({ id: 1, event: "status", data: { status: "running" } })).toBe("Status: running");
    expect(progressMessage({ id: 2, event: "progress", data: { stage: "reading", wave: 1, searches: 4, pages: 7, cost_usd: 0.021 } })).toBe(
      "reading · wave 1 · 4 searches · 7 pages read · $0.0210 spent",
    );
    expect(progressMessage({ id: 3, event: "source", data: { url: "https://a.example/x", title: "A page", domain: "a.example" } })).toBe(
      "Read: A page (a.example)",
    );
    expect(progressMessage({ id: 4, event: "error", data: { code: "job_failed", message: "No sources found." } })).toBe("Failed: No sources found.");
    expect(progressMessage({ id: 5, event: "result", data: base })).toBeNull();
  });
});
