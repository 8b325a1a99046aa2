import { describe, expect, it } from "vitest";
import { call, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, docsLoaded, eventsOf, jobLedger, openEvents, readSse, research, waitForTerminal } from "./helpers";

/**
 * Typed output through the service: what a customer gets back from POST /v1/research with a
 * response_schema. The documents have the shapes of the probes on the demo corpus: speeches
 * that mention the Internet beside numbers about something else, and Lincoln's message on the
 * emancipation proclamation, which states no year for it.
 */
const DOMAIN = "typed-output.example.org";
const DOCS = [
  {
    url: `https://${DOMAIN}/2021-biden`,
    title: "2021 address (Joe Biden)",
    text: "Today, 90 percent of Americans now live within five miles of a vaccination site. No President has ever said those words, and it's about time. We will bring affordable high-speed Internet to every American household.",
  },
  {
    url: `https://${DOMAIN}/1997-clinton`,
    title: "1997 address (Bill Clinton)",
    text: "We must connect every classroom and library in America to the Internet by the year 2000. Every 12-year-old must be able to log on to the Internet.",
  },
  {
    url: `https://${DOMAIN}/1863-lincoln`,
    title: "1863 address (Abraham Lincoln)",
    text:
      "The preliminary emancipation proclamation, issued in September, was running its assigned period to the beginning of the new year. " +
      "The receipts during the year from all sources were $901,125,674.86. I shall not attempt to retract or modify the emancipation proclamation.",
  },
];

const ask = (question: string, schema: Record<string, unknown>) => ({ question, mode: "lite", include_domains: [DOMAIN], response_schema: schema });

describe("typed output through the service", () => {
  it("never carries a value no cited passage supports, and every value it carries has its basis", async () => {
    await docsLoaded(DOCS);
    const caller = await apiCaller();
    const schema = {
      type: "object",
      properties: {
        answer: { type: "string" },
        yes: { type: "boolean" },
        president_count: { type: "integer" },
        mentions: { type: "array", items: { type: "integer" } },
      },
    };
    const response = await research(caller, ask("Did any president ever mention the internet?", schema));
    expect(response.status).toBe(200);
    const done = await json(response);
    expect(done.status).toBe("succeeded");
    // No count of presidents from "90 percent of Americans", no numbers list; `yes` only as the
    // brief states it (two addresses say "Internet": never the invented `false`).
    expect(done.typed).not.toHaveProperty("president_count");
    expect(done.typed.yes).toBe(true);
    expect(done.answer).toMatchObject({ text: "yes", confidence: "high" });
    expect(done.typed).not.toHaveProperty("mentions");
    for (const key of Object.keys(done.typed)) {
      const basis = done.citations.filter((citation: { field?: string }) => citation.field === key);
      expect(basis.length).toBeGreaterThan(0);
      for (const entry of basis) expect(["high", "medium", "low"]).toContain(entry.confidence);
    }
    // Only the typed output's entries carry a confidence.
    for (const citation of done.citations) expect(citation.confidence === undefined).toBe(citation.field === undefined);
  });

  it("fails a required field no source supports, naming it: refunded in full, and the failed result hands over none of the research", async () => {
    await docsLoaded(DOCS);
    const caller = await apiCaller();
    const before = await balanceOf(caller);
    const schema = { type: "object", required: ["answer", "year"], properties: { answer: { type: "string" }, year: { type: "integer" } } };
    const response = await research(caller, ask("In what year did Lincoln issue the Emancipation Proclamation?", schema));
    expect(response.status).toBe(200);
    const failed = await json(response);
    expect(failed).toMatchObject({ status: "failed", credits_charged: 0, typed: null, error: "Typed output: no source supports the required field(s) year." });
    expect(await balanceOf(caller)).toBe(before);
    const ledger = await jobLedger(caller.id, failed.id);
    expect(ledger.map((entry) => entry.kind)).toEqual(["reservation", "release"]);
    expect(ledger[0]!.delta + ledger[1]!.delta).toBe(0);
    await expectLedgerConsistent(caller.id);
    // Refunded, so none of the research is handed over: a schema no source can satisfy is not a free brief (issue 39).
    expect(failed).toMatchObject({ brief: null, answer: null, sources: [], citations: [], partial: false });
    // The stored job and its event stream say the same.
    expect(await json(await call(`/v1/research/${failed.id}`, { token: caller.key }))).toEqual(failed);
    const events = eventsOf(await readSse(await openEvents(caller, failed.id)));
    expect(events.at(-2)!.data).toEqual({ code: expect.any(String), message: failed.error });
    expect(events.at(-1)!.data).toEqual(failed);
  });

  it("a schema no source can satisfy buys no research in any mode: failed, refunded, error naming the field, no brief (issue 39)", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const before = await balanceOf(caller);
    const schema = { type: "object", required: ["zqxv"], properties: { zqxv: { type: "integer", minimum: 987654321 } } };
    for (const mode of ["lite", "standard", "pro"]) {
      const response = await research(caller, { question: "What did Abraham Lincoln say about emancipation?", mode, response_schema: schema });
      expect([200, 202]).toContain(response.status);
      const body = await json(response);
      // Pro runs longer than a synchronous call may wait: it answers 202 and is followed to its end.
      const failed = response.status === 202 ? await waitForTerminal(caller, body.id) : body;
      expect(failed).toMatchObject({
        status: "failed",
        credits_charged: 0,
        brief: null,
        answer: null,
        typed: null,
        sources: [],
        citations: [],
        partial: false,
      });
      expect(failed.error).toBe("Typed output: no source supports the required field(s) zqxv.");
      // The stored job, and the result its event stream ends with, hand over nothing more.
      expect(await json(await call(`/v1/research/${failed.id}`, { token: caller.key }))).toEqual(failed);
      const events = eventsOf(await readSse(await openEvents(caller, failed.id)));
      expect(events.at(-1)!.data).toEqual(failed);
      expect(events.some((event) => event.event === "result" && (event.data as { brief?: unknown }).brief)).toBe(false);
    }
    expect(await balanceOf(caller)).toBe(before);
    await expectLedgerConsistent(caller.id);
  });

  it("an integer list no longer fails the job: it holds supported integers or is left out", async () => {
    await docsLoaded(DOCS);
    const caller = await apiCaller();
    const schema = {
      type: "object",
      required: ["answer"],
      properties: { answer: { type: "string" }, figures: { type: "array", items: { type: "integer" } }, years: { type: "array", items: { type: "integer" } } },
    };
    const response = await research(caller, ask("What did Lincoln say about the emancipation proclamation and the receipts?", schema));
    const done = await json(response);
    expect(done.error, done.brief).toBeNull();
    expect(done.status).toBe("succeeded");
    for (const key of ["figures", "years"]) {
      if (!(key in done.typed)) continue;
      for (const [index, value] of (done.typed[key] as number[]).entries()) {
        expect(Number.isInteger(value)).toBe(true);
        expect(done.citations.some((citation: { field?: string }) => citation.field === `${key}[${index}]`)).toBe(true);
      }
    }
  });
});
