import { describe, expect, it } from "vitest";
import { compileSchema, InvalidSchemaError, type ResearchOutput, runResearch, TypedOutputError, UnsupportedFieldsError } from "../../src/research/engine";
import type { ChatModel, ChatRequest } from "../../src/research/providers/types";
import { budgetsForMode } from "../../src/research/pricing";
import { Evidence, type EvidenceAnalysis } from "../../src/research/engine/evidence";
import { analyzeQuestion } from "../../src/research/engine/question";
import { TypedEvidence } from "../../src/research/engine/write/typed/evidence";
import { declined, type FakeDoc, isPlanOrReflect, memoryProviders, TWO_HOP_DOCS, WIKI } from "./helpers";

const kissAndTell = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?";
const internet = "Did any president ever mention the internet?";
const emancipation = "In what year did Lincoln issue the Emancipation Proclamation?";

const SOTU = (year: number, president: string) => `corpus://sotu.corpus/${year}-${president.toLowerCase().replace(/ /g, "-")}`;

/**
 * The shapes of the probes: speeches that mention the Internet beside numbers that count
 * something else ("90 percent of Americans", "98 percent", "every 12-year-old"), and Lincoln's
 * message on the proclamation, which states no year for it beside a dollar figure.
 */
const SPEECHES: FakeDoc[] = [
  {
    url: SOTU(1997, "Bill Clinton"),
    title: "1997 State of the Union (Bill Clinton)",
    text: "We must connect every classroom and library in America to the Internet by the year 2000. Every 12-year-old must be able to log on to the Internet. Our economy grew by 3 percent last year.",
  },
  {
    url: SOTU(2021, "Joe Biden"),
    title: "2021 State of the Union (Joe Biden)",
    text: "Today, 90 percent of Americans now live within five miles of a vaccination site. No President has ever said those words, and it's about time. We will bring affordable high-speed Internet to every American household.",
  },
  {
    url: SOTU(2011, "Barack Obama"),
    title: "2011 State of the Union (Barack Obama)",
    text: "Within the next five years, we will make it possible for businesses to deploy the next generation of high-speed wireless coverage to 98 percent of all Americans. This is about a faster Internet.",
  },
  {
    url: SOTU(1863, "Abraham Lincoln"),
    title: "1863 State of the Union (Abraham Lincoln)",
    text:
      "The preliminary emancipation proclamation, issued in September, was running its assigned period to the beginning of the new year. " +
      "The receipts during the year from all sources were $901,125,674.86. I shall not attempt to retract or modify the emancipation proclamation.",
  },
];

/** A page that states what the probes ask: the proclamation's date, and a count of presidents. */
const STATED: FakeDoc[] = [
  {
    url: WIKI("Emancipation Proclamation"),
    title: "Emancipation Proclamation",
    text: "The Emancipation Proclamation was issued by President Abraham Lincoln on January 1, 1863, during the Civil War. It changed the legal status of more than 3.5 million enslaved people.",
  },
  {
    url: WIKI("Internet in presidential addresses"),
    title: "Internet in presidential addresses",
    text: "By 2020, eleven presidents had mentioned the Internet in their annual messages to Congress. The first was Bill Clinton.",
  },
];

/** Tariffs with years and a decimal rate: an integer list once failed the job on "49.5". */
const TARIFFS: FakeDoc[] = [
  {
    url: WIKI("Tariff of 1828"),
    title: "Tariff of 1828",
    text: "The Tariff of 1828 was a protective tariff passed by Congress. Its opponents called it the Tariff of Abominations.",
  },
  {
    url: WIKI("McKinley Tariff"),
    title: "McKinley Tariff",
    text: "The average duty rate on imports rose to 49.5 percent under the McKinley Tariff of 1890. It was authored by William McKinley.",
  },
  {
    url: WIKI("Smoot-Hawley Tariff Act"),
    title: "Smoot-Hawley Tariff Act",
    text: "The Smoot-Hawley Tariff Act of 1930 raised tariffs on over 20,000 imported goods.",
  },
];

function run(question: string, docs: FakeDoc[], schema: Record<string, unknown>, llm: ChatModel | null = null) {
  const providers = { ...memoryProviders(docs), llm };
  return runResearch({ question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true, response_schema: schema }, { providers });
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });

/** The basis entries of the typed output (citations with `field`). */
const basisOf = (result: ResearchOutput) => result.citations.filter((citation) => citation.field !== undefined);

/** Every basis entry quotes its source exactly and carries a confidence. */
function expectExactBasis(result: ResearchOutput, docs: FakeDoc[]) {
  for (const entry of basisOf(result)) {
    expect(["high", "medium", "low"]).toContain(entry.confidence);
    expect(entry.claim.startsWith(`${entry.field}: `)).toBe(true);
    const doc = docs.find((candidate) => candidate.url === result.sources[entry.source]!.url)!;
    expect(doc.text.slice(entry.start, entry.end)).toBe(entry.quote);
  }
}

/** Runs and returns the UnsupportedFieldsError it must fail with. */
async function unsupported(question: string, docs: FakeDoc[], schema: Record<string, unknown>, llm: ChatModel | null = null): Promise<UnsupportedFieldsError> {
  const error = await run(question, docs, schema, llm).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UnsupportedFieldsError);
  return error as UnsupportedFieldsError;
}

/** State of the Union addresses, each opening with its salutation (a question asking which president is addressed by it). */
const stateOfTheUnion = (addresses: [number, string, string][]): FakeDoc[] =>
  addresses.map(([year, president, text]) => ({
    url: `https://archive.example.org/${year}-state-of-the-union`,
    title: `${president}: State of the Union address, ${year}`,
    text: `Mr. President, Members of the Congress. ${text}`,
  }));

describe("response_schema checks", () => {
  it("rejects an invalid schema before any work", async () => {
    for (const schema of [{ type: "strng" }, { properties: [] }, { type: "object", required: "answer" }, { minLength: -1 }, { pattern: "(" }]) {
      expect(() => compileSchema(schema as Record<string, unknown>)).toThrow(InvalidSchemaError);
    }
    const providers = memoryProviders(TWO_HOP_DOCS);
    await expect(
      runResearch(
        { question: kissAndTell, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true, response_schema: { type: "nope" } },
        { providers },
      ),
    ).rejects.toBeInstanceOf(InvalidSchemaError);
    expect(providers.search.queries).toEqual([]);
  });
});

describe("typed output offline: a value only where a cited passage supports it", () => {
  it("fills what the evidence states, each value with its passage and a confidence", async () => {
    const schema = object(
      {
        answer: { type: "string", minLength: 1 },
        findings: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
        born: { type: "integer", description: "year she was born", minimum: 1800, maximum: 2100 },
        birth_date: { type: "string", format: "date", description: "birth date" },
        sources: { type: "array", items: { type: "object", required: ["url", "title"], properties: { url: { type: "string" }, title: { type: "string" } } } },
      },
      ["answer", "findings", "born", "birth_date", "sources"],
    );
    const result = await run(kissAndTell, TWO_HOP_DOCS, schema);
    const typed = result.typed as Record<string, any>;
    expect(result.brief.replace(/\s*\[\d+\]/g, "")).toContain(typed.answer.replace(/\.$/, ""));
    expect(typed.findings.length).toBeGreaterThanOrEqual(1);
    expect(typed.findings.length).toBeLessThanOrEqual(3);
    expect(typed.born).toBe(1928);
    expect(typed.birth_date).toBe("1928-04-23");
    expect(typed.sources.map((source: { url: string }) => source.url)).toEqual(result.sources.map((source) => source.url));
    // Every value has a basis entry (list items and nested fields by their path), quoting its passage exactly.
    const fields = basisOf(result).map((entry) => entry.field);
    expect(fields).toEqual(expect.arrayContaining(["answer", "findings[0]", "born", "birth_date", "sources[0].url", "sources[0].title"]));
    expectExactBasis(result, TWO_HOP_DOCS);
    const born = basisOf(result).find((entry) => entry.field === "born")!;
    expect(born.quote).toContain("1928");
    expect(born.confidence).toBe("high");
  });

  it("never takes a count from a number about something else (no president_count: 90), nor a yes/no the brief does not state", async () => {
    const result = await run(internet, SPEECHES, object({ answer: { type: "string" }, yes: { type: "boolean" }, president_count: { type: "integer" } }));
    const typed = result.typed as Record<string, unknown>;
    // The brief does not say yes or no: the optional fields are left out, never false or a stray number.
    expect(typed).not.toHaveProperty("president_count");
    expect(typed).not.toHaveProperty("yes");
    expect(typeof typed.answer).toBe("string");
    expect(basisOf(result).map((entry) => entry.field)).toEqual(["answer"]);
  });

  it("never gives a year that no passage states (no year: 0): null where allowed, left out where optional, the job fails where required", async () => {
    const nullable = await run(emancipation, SPEECHES, object({ answer: { type: "string" }, year: { type: ["integer", "null"] } }));
    expect(nullable.typed).toMatchObject({ year: null });
    expect(basisOf(nullable).some((entry) => entry.field === "year")).toBe(false);

    const optional = await run(emancipation, SPEECHES, object({ answer: { type: "string" }, year: { type: "integer" } }));
    expect(optional.typed).not.toHaveProperty("year");

    const error = await unsupported(emancipation, SPEECHES, object({ answer: { type: "string" }, year: { type: "integer" } }, ["answer", "year"]));
    expect(error.message).toBe("Typed output: no source supports the required field(s) year.");
    expect(error.fields).toEqual(["year"]);
    // The failure carries no research (it is refunded): the jobs layer hands over only the error (issue 39).
    expect(error).not.toHaveProperty("found");
  });

  it("names every required field no source supports", async () => {
    const schema = object({ answer: { type: "string" }, yes: { type: "boolean" }, president_count: { type: "integer" } }, ["answer", "yes", "president_count"]);
    const error = await unsupported(internet, SPEECHES, schema);
    expect(error.message).toBe("Typed output: no source supports the required field(s) yes, president_count.");
    // A nested required field is named by its path.
    const nested = await unsupported(
      emancipation,
      SPEECHES,
      object({ event: object({ name: { type: "string" }, year: { type: "integer" } }, ["year"]) }, ["event"]),
    );
    expect(nested.fields).toEqual(["event.year"]);
  });

  it("takes a year a passage states about the question, with that passage", async () => {
    const result = await run(emancipation, [...SPEECHES, ...STATED], object({ answer: { type: "string" }, year: { type: "integer" } }, ["year"]));
    expect((result.typed as { year: number }).year).toBe(1863);
    const basis = basisOf(result).find((entry) => entry.field === "year")!;
    expect(basis.quote).toContain("January 1, 1863");
    expectExactBasis(result, [...SPEECHES, ...STATED]);
  });

  it("takes a count only from the number stated with the counted noun", async () => {
    const result = await run(internet, [...SPEECHES, ...STATED], object({ president_count: { type: "integer" } }, ["president_count"]));
    expect(result.typed).toEqual({ president_count: 11 });
    expect(basisOf(result).find((entry) => entry.field === "president_count")!.quote).toContain("eleven presidents had mentioned the Internet");
  });

  it("a field named only `count` counts the noun the question asks how many of", async () => {
    const result = await run("How many presidents mentioned the Internet?", [...SPEECHES, ...STATED], object({ count: { type: "integer" } }, ["count"]));
    expect(result.typed).toEqual({ count: 11 });
  });

  it("counts the cited sources only when the field says it counts sources", async () => {
    const schema = object({ speech_count: { type: "integer", description: "number of cited speeches that mention the Internet" } }, ["speech_count"]);
    const result = await run(internet, SPEECHES, schema);
    const counted = basisOf(result).filter((entry) => entry.field === "speech_count");
    const mentioning = result.sources.filter((_, index) => counted.some((entry) => entry.source === index));
    expect(result.typed).toEqual({ speech_count: mentioning.length });
    expect(mentioning.length).toBeGreaterThan(0);
    for (const entry of counted) expect(entry.confidence).toBe("medium");
  });

  it("fills integer, number and boolean lists with supported values only", async () => {
    const schema = object(
      {
        years: { type: "array", items: { type: "integer" }, description: "years the tariffs were passed" },
        rates: { type: "array", items: { type: "number" }, description: "average duty rate in percent" },
      },
      ["years", "rates"],
    );
    const result = await run("How did United States tariffs change over time?", TARIFFS, schema);
    const typed = result.typed as { years: number[]; rates: number[] };
    expect(typed.years.length).toBeGreaterThan(0);
    expect([...typed.years].sort()).toEqual([1828, 1890, 1930]);
    expect(typed.rates).toEqual([49.5]);
    expect(basisOf(result).filter((entry) => entry.field!.startsWith("years[")).length).toBe(typed.years.length);
    expectExactBasis(result, TARIFFS);

    const flags = await run(
      "Were Scott Derrickson and Ed Wood of the same nationality?",
      TWO_HOP_DOCS,
      object({ same: { type: "array", items: { type: "boolean" } } }),
    );
    expect(flags.typed).toEqual({ same: [true] });
  });

  it("takes a boolean from the brief's stated yes/no, and only in a field that asks the question", async () => {
    const schema = object({ same_nationality: { type: "boolean" }, is_controversial: { type: ["boolean", "null"] } });
    const result = await run("Were Scott Derrickson and Ed Wood of the same nationality?", TWO_HOP_DOCS, schema);
    expect(result.brief).toMatch(/^Yes\b/);
    expect(result.typed).toEqual({ same_nationality: true, is_controversial: null });
    expect(basisOf(result).filter((entry) => entry.field === "same_nationality").length).toBeGreaterThan(0);
  });

  it("a boolean named by the question's verb asks it ('mentioned' for 'Did Kennedy ever mention Vietnam?')", async () => {
    const kennedy: FakeDoc = {
      url: SOTU(1963, "John F Kennedy"),
      title: "John F Kennedy: State of the Union address, 1963",
      text: "The spearpoint of aggression has been blunted in Vietnam. Our economy grows.",
    };
    const schema = object({ mentioned: { type: "boolean" }, is_controversial: { type: ["boolean", "null"] } });
    const result = await run("Did Kennedy ever mention Vietnam?", [kennedy], schema);
    expect(result.brief).toMatch(/^Yes\b/);
    expect(result.typed).toEqual({ mentioned: true, is_controversial: null });
  });

  it("reads a yes/no only where the brief answers a yes/no question with one", () => {
    const evidence = new Evidence();
    const doc = evidence.add(SPEECHES[1]!, "sotu.corpus", 1, []);
    const said = doc.passages[1]!; // "No President has ever said those words, ..."
    const yesNo = (question: string, opening: string) => {
      const synthesis = {
        brief: `${opening} [1].`,
        sources: [{ url: doc.url, title: doc.title, domain: doc.domain, summary: null }],
        cited: [doc],
        statements: [{ text: opening, docs: [doc.index], passages: [said] }],
        citations: [],
      };
      const analysis = { entities: [], bridgeEntities: [] } as unknown as EvidenceAnalysis;
      return TypedEvidence.of(synthesis, analyzeQuestion(question), analysis).yesNo()?.value ?? null;
    };
    expect(yesNo(internet, "No President has ever said those words, and it's about time.")).toBeNull();
    expect(yesNo(internet, "No: the sources do not describe any president as mentioning it.")).toBe(false);
    expect(yesNo(internet, "Yes, the 2021 address speaks of high-speed Internet.")).toBe(true);
    expect(yesNo("Which president spoke of the Internet?", "Yes: the 2021 address does.")).toBeNull();
  });

  it("leaves out a string field no statement of the brief speaks of", async () => {
    const result = await run(kissAndTell, TWO_HOP_DOCS, object({ answer: { type: "string" }, capital_city: { type: "string" } }));
    expect(result.typed).not.toHaveProperty("capital_city");
  });

  it("fails a field the evidence cannot satisfy, naming it", async () => {
    const schema = object({ code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } }, ["code"]);
    await expect(run(kissAndTell, TWO_HOP_DOCS, schema)).rejects.toBeInstanceOf(TypedOutputError);
    await expect(run(kissAndTell, TWO_HOP_DOCS, schema)).rejects.toThrow("Typed output: no source supports the required field(s) code");
  });
});

class ScriptedModel implements ChatModel {
  readonly name = "scripted";
  readonly requests: ChatRequest[] = [];

  constructor(private readonly answers: string[]) {}

  async complete(request: ChatRequest) {
    if (isPlanOrReflect(request)) throw declined();
    this.requests.push(request);
    return { text: this.answers.shift() ?? "", inputTokens: 1000, outputTokens: 100 };
  }
}

describe("typed output with a model: its values checked like the engine's own", () => {
  const schema = { type: "object", required: ["position"], properties: { position: { type: "string" } }, additionalProperties: false };
  /** The write stage's answer (claims with their verbatim quotes, issue 40) and the critic's, before the typed output's call. */
  const TEMPLE =
    "As an adult, she was named United States ambassador to Ghana and to Czechoslovakia and also served as Chief of Protocol of the United States.";
  const claimed = (text: string, source: number, quote: string) => [
    JSON.stringify({ claims: [{ text, quotes: [{ source, quote }] }], answer: null }),
    JSON.stringify({ verdicts: [{ id: 1, verdict: "supported" }] }),
  ];
  const protocol = claimed("Shirley Temple served as Chief of Protocol.", 2, TEMPLE);

  it("keeps a value a cited passage holds, with that passage", async () => {
    const model = new ScriptedModel([...protocol, '{"position": "Chief of Protocol"}']);
    const result = await run(kissAndTell, TWO_HOP_DOCS, schema, model);
    expect(result.typed).toEqual({ position: "Chief of Protocol" });
    const basis = basisOf(result);
    expect(basis).toHaveLength(1);
    expect(basis[0]).toMatchObject({ field: "position", confidence: "high" });
    expect(basis[0]!.quote).toContain("Chief of Protocol");
    // Token usage is metered: three calls of 1,000 in + 100 out.
    expect(result.cost_usd).toBeGreaterThan(0);
  });

  it("removes the values no passage supports: a stray count, a false no one stated, a year 0", async () => {
    const model = new ScriptedModel([
      ...claimed("A president spoke of the Internet.", 1, "We will bring affordable high-speed Internet to every American household"),
      '{"answer": "No President has ever said those words", "yes": false, "president_count": 90, "year": 0}',
    ]);
    const result = await run(
      internet,
      SPEECHES,
      object({ answer: { type: "string" }, yes: { type: ["boolean", "null"] }, president_count: { type: "integer" }, year: { type: "integer" } }),
      model,
    );
    expect(result.typed).toEqual({ answer: "No President has ever said those words", yes: null });
    expect(basisOf(result).map((entry) => entry.field)).toEqual(["answer"]);
  });

  it("fails, without a repair turn, when no source supports a required value the model gave or left null", async () => {
    const diplomat = claimed("Shirley Temple was a diplomat.", 2, TEMPLE);
    const invented = new ScriptedModel([...diplomat, '{"position": "Secretary of State"}']);
    expect((await unsupported(kissAndTell, TWO_HOP_DOCS, schema, invented)).fields).toEqual(["position"]);
    expect(invented.requests).toHaveLength(3);
    const unknown = new ScriptedModel([...diplomat, '{"position": null}']);
    expect((await unsupported(kissAndTell, TWO_HOP_DOCS, schema, unknown)).fields).toEqual(["position"]);
    expect(unknown.requests).toHaveLength(3);
  });

  it("keeps only the sources the brief cites, each one whole", async () => {
    const sources = { type: "array", items: { type: "object", required: ["url"], properties: { url: { type: "string" }, title: { type: "string" } } } };
    const model = new ScriptedModel([
      ...protocol,
      JSON.stringify({
        sources: [
          { url: WIKI("Shirley Temple"), title: "Shirley Temple" },
          { url: "https://en.wikipedia.org", title: "Wikipedia" },
          { url: "https://example.com/made-up" },
        ],
      }),
    ]);
    const result = await run(kissAndTell, TWO_HOP_DOCS, object({ sources }, ["sources"]), model);
    expect(result.typed).toEqual({ sources: [{ url: WIKI("Shirley Temple"), title: "Shirley Temple" }] });
    expect(basisOf(result).map((entry) => entry.field)).toEqual(["sources[0].url", "sources[0].title"]);
  });

  it("repairs once with the validator's errors", async () => {
    const model = new ScriptedModel([...protocol, '{"position": 7}', '```json\n{"position": "Chief of Protocol"}\n```']);
    const result = await run(kissAndTell, TWO_HOP_DOCS, schema, model);
    expect(result.typed).toEqual({ position: "Chief of Protocol" });
    const repair = model.requests[3]!.messages.at(-1)!.content;
    expect(repair).toMatch(/Validator errors/);
    expect(repair).toMatch(/position/);
  });

  it("after the one repair, fills the output offline under the same rules (a model's JSON never fails a job by itself)", async () => {
    const model = new ScriptedModel([...protocol, '{"position": 7}', '{"position": ["wrong"]}']);
    const outcome = (llm: ChatModel | null) =>
      run(kissAndTell, TWO_HOP_DOCS, schema, llm).then(
        (result) => result.typed,
        (error: unknown) => (error as Error).message,
      );
    expect(await outcome(model)).toEqual(await outcome(null));
    expect(model.requests).toHaveLength(4);
  });

  it("keeps a name in a name field and drops a sentence there (issue 43): the field holds who, not what was said", async () => {
    const DECLARES = "This administration today, here and now, declares unconditional war on poverty in America.";
    const addresses: FakeDoc[] = [
      { url: SOTU(1964, "Lyndon B Johnson"), title: "Lyndon B Johnson: State of the Union address, 1964", text: `Let us carry forward the plans. ${DECLARES}` },
    ];
    const written = claimed("Johnson declared unconditional war on poverty.", 1, DECLARES);
    const question = "Which president declared an unconditional war on poverty?";
    const fields = object({ president: { type: ["string", "null"] }, year: { type: ["integer", "null"] } });
    const sentence = new ScriptedModel([...written, JSON.stringify({ president: `On that occasion, President Johnson said: ${DECLARES}`, year: 1949 })]);
    expect((await run(question, addresses, fields, sentence)).typed).toEqual({ president: null, year: null });
    const named = new ScriptedModel([...written, '{"president": "Lyndon B. Johnson", "year": 1964}']);
    const result = await run(question, addresses, fields, named);
    expect(result.typed).toEqual({ president: "Lyndon B. Johnson", year: 1964 });
    // The basis quotes the declaring sentence (its final stop is punctuation, not part of the quote).
    expect(basisOf(result).map((entry) => [entry.field, entry.quote])).toEqual([
      ["president", DECLARES.replace(/\.$/, "")],
      ["year", DECLARES.replace(/\.$/, "")],
    ]);
    expectExactBasis(result, addresses);
  });
});

describe("typed fields that ask who or when, offline (issue 43)", () => {
  const addresses: FakeDoc[] = [
    {
      url: "https://lbj-library.example.org/1964-state-of-the-union",
      title: "Lyndon B Johnson: State of the Union address, 1964",
      text: "Let us carry forward the plans and programs of John Fitzgerald Kennedy. This administration today, here and now, declares unconditional war on poverty in America.",
    },
    {
      url: "https://archive.example.net/1967-lyndon-b-johnson",
      title: "Lyndon B Johnson: State of the Union address, 1967",
      text: 'On a similar occasion, at this rostrum in 1949, I heard a great American President, Harry S. Truman, declare this: "The American people have decided that poverty is just as wasteful and just as unnecessary as preventable disease." We have come a long way in the war on poverty.',
    },
    {
      url: "https://reagan-library.example.com/1988",
      title: "Ronald Reagan: State of the Union address, 1988",
      text: "My friends, some years ago, the Federal Government declared war on poverty, and poverty won.",
    },
  ];

  it("a who field takes the speaker whose own sentence does it, a year field that address's year; never a sentence, never a quoted year", async () => {
    // Johnson's 1964 declaration and his 1967 address quoting Truman's words of 1949.
    const johnson = addresses.filter((doc) => !doc.url.includes("reagan"));
    const result = await run(
      "Which president declared an unconditional war on poverty?",
      johnson,
      object({ president: { type: "string" }, year: { type: "integer" } }),
    );
    expect(result.typed).toEqual({ president: "Lyndon B Johnson", year: 1964 });
    expectExactBasis(result, johnson);
  });

  it("a sentence telling of the act in the past, or quoting another's words, names no one", async () => {
    const result = await run(
      "Which president declared war on poverty?",
      addresses.filter((doc) => !doc.url.includes("lbj-library")),
      object({ president: { type: ["string", "null"] }, year: { type: ["integer", "null"] } }),
    );
    expect((result.typed as { president: unknown }).president).toBeNull();
  });

  it("a bare name field takes the speaker of the act's sentence, whose subjects the speech names in the sentences before it", async () => {
    const bush: FakeDoc[] = [
      {
        url: "https://archive.example.org/2002-state-of-the-union",
        title: "George W Bush: State of the Union address, 2002",
        text: "North Korea is a regime arming with missiles. Iran aggressively pursues these weapons. Iraq continues to flaunt its hostility toward America. States like these and their terrorist allies constitute an axis of evil.",
      },
      {
        url: "https://archive.example.org/2018-state-of-the-union",
        title: "Donald J Trump: State of the Union address, 2018",
        text: "In 1996, a boy was starving in North Korea. Iran and Iraq were mentioned too.",
      },
    ];
    const result = await run(
      "Who called Iraq, Iran and North Korea an axis of evil?",
      bush,
      object({ name: { type: "string" }, year: { type: "number" } }, ["name"]),
    );
    expect(result.answer?.text).toBe("George W Bush");
    expect(result.typed).toEqual({ name: "George W Bush", year: 2002 });
    expectExactBasis(result, bush);
  });

  it("lists the speakers and years of a topic", async () => {
    const result = await run(
      "Which presidents talked about the war on poverty?",
      addresses,
      object({ presidents: { type: "array", items: { type: "string" } }, years: { type: "array", items: { type: "integer" } } }),
    );
    expect([...(result.typed as { presidents: string[] }).presidents].sort()).toEqual(["Lyndon B Johnson", "Ronald Reagan"]);
    expect((result.typed as { years: number[] }).years).toEqual(expect.arrayContaining([1967, 1988]));
    expectExactBasis(result, addresses);
  });

  it("the years someone spoke of a topic are their addresses' years, never a year a sentence of them states", async () => {
    const ike: FakeDoc[] = [1954, 1955].map((year) => ({
      url: `https://archive.example.org/${year}-eisenhower`,
      title: `Dwight D Eisenhower: State of the Union address, ${year}`,
      text:
        year === 1954
          ? "The interstate highway system has lagged since the Federal-Aid Highway Act of 1944. We must finish the interstate highway system."
          : "A modern interstate highway system is essential to our growing population. Our farms need help.",
    }));
    const result = await run(
      "In which years did Dwight Eisenhower speak about the interstate highway system?",
      ike,
      object({ years: { type: "array", items: { type: "integer" } } }),
    );
    expect([...(result.typed as { years: number[] }).years].sort()).toEqual([1954, 1955]);
  });

  it("lists the years in order of time, each of a speech saying a word of what was said, never one quoted for the question's other words", async () => {
    const nixon: FakeDoc[] = [
      {
        url: "https://archive.example.org/1974-nixon",
        title: "Richard Nixon: State of the Union address, 1974",
        text: "One year of Watergate is enough. Our economy will grow.",
      },
      {
        url: "https://archive.example.org/1971-nixon",
        title: "Richard Nixon: State of the Union address, 1971",
        text: "As President, I speak to you of a new American revolution. Watergate was no word then.",
      },
      {
        url: "https://archive.example.org/1972-nixon",
        title: "Richard Nixon: State of the Union address, 1972",
        text: "As President, I will travel to Peking. The war winds down.",
      },
    ];
    const result = await run(
      "Which president spoke about Watergate and when?",
      nixon,
      object({ speaker: { type: "string" }, years: { type: "array", items: { type: "integer" } } }),
    );
    expect(result.typed).toEqual({ speaker: "Richard Nixon", years: [1971, 1974] });
  });

  it("reads a record's years from the pages of the speaker its person field holds, never another speaker's quoted beside them", async () => {
    const speeches = stateOfTheUnion([
      [1961, "John F Kennedy", "We can mobilize this talent through the formation of a National Peace Corps. The economy recovers."],
      [1963, "John F Kennedy", "Nothing carries this American idealism more effectively than the American Peace Corps."],
      [1966, "Lyndon B Johnson", "We have extended the helping hand of the Peace Corps. The war goes on."],
    ]);
    const result = await run(
      "Which president talked about the Peace Corps and when?",
      speeches,
      object({ speaker: { type: "string" }, years: { type: "array", items: { type: "integer" } } }),
    );
    const typed = result.typed as { speaker: string; years: number[] };
    const yearsOf: Record<string, number[]> = { "John F Kennedy": [1961, 1963], "Lyndon B Johnson": [1966] };
    // Whichever speaker the record names (the brief's closest evidence is Johnson's), its years are that speaker's.
    expect(Object.keys(yearsOf)).toContain(typed.speaker);
    expect(typed.years).toEqual(yearsOf[typed.speaker]);
    // The caller's order of keys, though the person's field is filled first.
    const reversed = await run(
      "Which president talked about the Peace Corps and when?",
      speeches,
      object({ years: { type: "array", items: { type: "integer" } }, speaker: { type: "string" } }),
    );
    expect(Object.keys(reversed.typed as object)).toEqual(["years", "speaker"]);
  });

  it("fills a quote field with a source's words as they stand, of the speaker the record names", async () => {
    const speeches = stateOfTheUnion([
      [1996, "William J Clinton", "The state of the Union is strong. Our economy is the healthiest in three decades."],
      [2015, "Barack Obama", "The shadow of crisis has passed, and the State of the Union is strong."],
    ]);
    const result = await run(
      "Who said that the state of the Union is strong?",
      speeches,
      object({ speaker: { type: "string" }, quote: { type: "string" }, year: { type: "integer" } }),
    );
    const typed = result.typed as { speaker: string; quote: string; year: number };
    const said: Record<string, [string, number]> = {
      "William J Clinton": ["The state of the Union is strong.", 1996],
      "Barack Obama": ["The shadow of crisis has passed, and the State of the Union is strong.", 2015],
    };
    expect(Object.keys(said)).toContain(typed.speaker);
    expect([typed.quote, typed.year]).toEqual(said[typed.speaker]);
    expectExactBasis(result, speeches);
  });
});
