import { describe, expect, it } from "vitest";
import { call, json } from "../helpers";
import { DEMO_DOMAIN, DEMO_EXCERPTS } from "./demo-excerpts";
import { apiCaller, type ApiCaller, docsLoaded, research, waitForTerminal } from "./helpers";

/**
 * Typed output that fits the field (issue 43, deliverable 6), through the service with the offline
 * engine, on excerpts of the demo corpus: a name field holds a name (the speaker of the address
 * whose own sentence does what the question asks), never a sentence; a year field the date of that
 * address; lists of strings, integers and numbers hold supported values.
 */
type Citation = { field?: string; quote: string; source: number; confidence?: string };

async function typed(
  caller: ApiCaller,
  question: string,
  schema: Record<string, unknown>,
  extra: Record<string, unknown> = { include_domains: [DEMO_DOMAIN] },
) {
  await docsLoaded(DEMO_EXCERPTS);
  const response = await research(caller, { question, mode: "standard", response_schema: schema, ...extra });
  expect([200, 202]).toContain(response.status);
  const body = await json(response);
  const done = response.status === 202 ? await waitForTerminal(caller, body.id) : body;
  expect(done.error, done.brief).toBeNull();
  expect(done.status).toBe("succeeded");
  return done;
}

const basisOf = (done: { citations: Citation[] }, field: string) => done.citations.filter((citation) => citation.field === field);
/** A name, not a sentence: a few words, no sentence punctuation. */
const isName = (value: unknown) => typeof value === "string" && value.split(/\s+/).length <= 6 && !/[.!?;:"“”]/.test(value.replace(/\b[A-Z]\./g, ""));

describe("typed fields that ask who or when", () => {
  it("a president field holds the speaker whose own sentence declares it, and a year field the address's year", async () => {
    const caller = await apiCaller();
    const schema = { type: "object", required: ["president", "year"], properties: { president: { type: "string" }, year: { type: "integer" } } };
    const done = await typed(caller, "Which president declared an unconditional war on poverty?", schema);
    // Not "On a similar occasion, at this rostrum in 1949, I heard a great American President, Harry S. Truman, declare this: ..." (and not its 1949).
    expect(done.typed).toEqual({ president: "Lyndon B Johnson", year: 1964 });
    for (const field of ["president", "year"]) {
      const basis = basisOf(done, field);
      expect(basis.length).toBeGreaterThan(0);
      expect(basis[0]!.quote).toBe("This administration today, here and now, declares unconditional war on poverty in America.");
      expect(done.sources[basis[0]!.source].title).toBe("Lyndon B Johnson: State of the Union address, 1964");
      expect(["medium", "low"]).toContain(basis[0]!.confidence);
    }
  });

  it("a year asked of a named speaker is the date of that speaker's address that does it", async () => {
    const caller = await apiCaller();
    const schema = { type: "object", required: ["year"], properties: { year: { type: "integer" }, speaker: { type: ["string", "null"] } } };
    const done = await typed(caller, "In which year did Lyndon Johnson declare an unconditional war on poverty?", schema);
    expect(done.typed).toEqual({ year: 1964, speaker: "Lyndon B Johnson" });
  });

  it("a sentence that only reports the act, or quotes someone else, gives no name and no date", async () => {
    const caller = await apiCaller();
    // Reagan's "the Federal Government declared war on poverty" tells of the act; Johnson's 1967
    // "I heard ... Harry S. Truman, declare this: ..." quotes Truman. Neither is its speaker's declaration of it.
    const schema = { type: "object", properties: { president: { type: ["string", "null"] }, year: { type: ["integer", "null"] } } };
    const done = await typed(caller, "Which president declared war on poverty and said poverty won?", schema);
    expect(done.typed.president === null || isName(done.typed.president)).toBe(true);
    expect(done.typed.president).not.toBe("Ronald Reagan");
  });
});

describe("typed lists", () => {
  it("string[]: the names of the speakers who spoke of it, each once, none a sentence", async () => {
    const caller = await apiCaller();
    const schema = { type: "object", required: ["presidents"], properties: { presidents: { type: "array", items: { type: "string" } } } };
    const done = await typed(caller, "Which presidents talked about the war on poverty?", schema);
    expect(done.typed.presidents).toEqual(expect.arrayContaining(["Lyndon B Johnson", "Ronald Reagan"]));
    expect(new Set(done.typed.presidents).size).toBe(done.typed.presidents.length);
    for (const [index, name] of (done.typed.presidents as string[]).entries()) {
      expect(isName(name)).toBe(true);
      expect(basisOf(done, `presidents[${index}]`).length).toBeGreaterThan(0);
    }
  });

  it("integer[]: the years of the addresses that speak of it, each with its basis", async () => {
    const caller = await apiCaller();
    const schema = { type: "object", required: ["years"], properties: { years: { type: "array", items: { type: "integer" } } } };
    const done = await typed(caller, "Which presidents talked about the war on poverty?", schema);
    expect(done.typed.years).toEqual(expect.arrayContaining([1988]));
    for (const [index, year] of (done.typed.years as number[]).entries()) {
      expect(Number.isInteger(year)).toBe(true);
      expect(basisOf(done, `years[${index}]`).length).toBeGreaterThan(0);
    }
  });

  it("number[]: numbers the cited passages state about what the field names", async () => {
    const caller = await apiCaller();
    const schema = { type: "object", required: ["new_jobs"], properties: { new_jobs: { type: "array", items: { type: "number" } } } };
    const done = await typed(caller, "How many new jobs did Bill Clinton report in 1998?", schema);
    expect(done.typed.new_jobs).toEqual(expect.arrayContaining([14_000_000]));
    for (const [index, value] of (done.typed.new_jobs as number[]).entries()) {
      expect(typeof value).toBe("number");
      expect(basisOf(done, `new_jobs[${index}]`).length).toBeGreaterThan(0);
    }
  });
});

describe("a date field", () => {
  it("is the date the address states for itself, when its document has one", async () => {
    const caller = await apiCaller();
    const [johnson] = DEMO_EXCERPTS.filter((doc) => doc.url.endsWith("1964-lyndon-b-johnson"));
    const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Dated addresses" } }));
    const document = { title: johnson!.title, text: johnson!.text, metadata: { published_at: "1964-01-08" } };
    expect((await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents: [document] } })).status).toBe(200);
    const schema = { type: "object", required: ["date"], properties: { date: { type: "string", format: "date" }, president: { type: "string" } } };
    const done = await typed(caller, "When did Lyndon Johnson declare an unconditional war on poverty?", schema, { collections: [id] });
    expect(done.typed).toEqual({ date: "1964-01-08", president: "Lyndon B Johnson" });
  });
});
