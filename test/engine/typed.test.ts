import { describe, expect, it } from "vitest";
import { compileSchema, InvalidSchemaError, runResearch, TypedOutputError } from "../../src/research/engine";
import type { ChatModel, ChatRequest } from "../../src/research/providers/types";
import { budgetsForMode } from "../../src/research/pricing";
import { memoryProviders, TWO_HOP_DOCS } from "./helpers";

const question = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?";

function run(schema: Record<string, unknown>, llm: ChatModel | null = null) {
  const providers = { ...memoryProviders(TWO_HOP_DOCS), llm };
  return runResearch({ question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true, response_schema: schema }, { providers });
}

describe("response_schema checks", () => {
  it("rejects an invalid schema before any work", async () => {
    for (const schema of [{ type: "strng" }, { properties: [] }, { type: "object", required: "answer" }, { minLength: -1 }, { pattern: "(" }]) {
      expect(() => compileSchema(schema as Record<string, unknown>)).toThrow(InvalidSchemaError);
    }
    const providers = memoryProviders(TWO_HOP_DOCS);
    await expect(
      runResearch({ question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true, response_schema: { type: "nope" } }, { providers }),
    ).rejects.toBeInstanceOf(InvalidSchemaError);
    expect(providers.search.queries).toEqual([]);
  });
});

describe("typed output offline", () => {
  it("fills strings, arrays, numbers, dates, booleans and source lists from the evidence, and validates", async () => {
    const schema = {
      type: "object",
      required: ["answer", "position", "findings", "born", "birth_date", "served_as_diplomat", "sources"],
      additionalProperties: false,
      properties: {
        answer: { type: "string", minLength: 1 },
        position: { type: "string", description: "the government position she held" },
        findings: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
        born: { type: "integer", description: "year she was born", minimum: 1800, maximum: 2100 },
        birth_date: { type: "string", format: "date", description: "birth date" },
        served_as_diplomat: { type: "boolean", description: "served as a diplomat or ambassador" },
        sources: { type: "array", items: { type: "object", required: ["url", "title"], properties: { url: { type: "string" }, title: { type: "string" } } } },
      },
    };
    const result = await run(schema);
    const typed = result.typed as Record<string, any>;
    expect(typed.answer).toContain("Shirley Temple");
    // A string field holds the sentence of the brief that best matches its name and description.
    expect(result.brief.replace(/\s*\[\d+\]/g, "")).toContain(typed.position.replace(/\.$/, ""));
    expect(typed.findings.length).toBeGreaterThanOrEqual(1);
    expect(typed.findings.length).toBeLessThanOrEqual(3);
    expect(typed.born).toBe(1928);
    expect(typed.birth_date).toBe("1928-04-23");
    expect(typed.served_as_diplomat).toBe(true);
    expect(typed.sources.map((source: { url: string }) => source.url)).toEqual(result.sources.map((source) => source.url));
    // The basis of the typed fields: a citation per field a cited passage holds, quoting it exactly.
    const fields = result.citations.filter((citation) => citation.field !== undefined);
    expect(fields.map((citation) => citation.field)).toEqual(expect.arrayContaining(["position", "born"]));
    expect(fields.map((citation) => citation.field)).not.toContain("served_as_diplomat");
    for (const citation of fields) {
      expect(citation.claim.startsWith(`${citation.field}: `)).toBe(true);
      const source = TWO_HOP_DOCS.find((doc) => doc.url === result.sources[citation.source]!.url)!;
      expect(source.text.slice(citation.start, citation.end)).toBe(citation.quote);
    }
    expect(fields.find((citation) => citation.field === "born")!.quote).toContain("1928");
  });

  it("fails with the validation error when the evidence cannot satisfy the schema", async () => {
    const schema = { type: "object", required: ["code"], properties: { code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } } };
    await expect(run(schema)).rejects.toBeInstanceOf(TypedOutputError);
    await expect(run(schema)).rejects.toThrow(/does not conform to response_schema: .*code/);
  });
});

class ScriptedModel implements ChatModel {
  readonly name = "scripted";
  readonly requests: ChatRequest[] = [];

  constructor(private readonly answers: string[]) {}

  async complete(request: ChatRequest) {
    this.requests.push(request);
    return { text: this.answers.shift() ?? "", inputTokens: 1000, outputTokens: 100 };
  }
}

describe("typed output with a model", () => {
  const schema = { type: "object", required: ["position"], properties: { position: { type: "string" } }, additionalProperties: false };

  it("returns valid JSON from the model", async () => {
    const model = new ScriptedModel(["Shirley Temple served as Chief of Protocol [2].", '{"position": "Chief of Protocol"}']);
    const result = await run(schema, model);
    expect(result.typed).toEqual({ position: "Chief of Protocol" });
    // Token usage is metered: two calls of 1,000 in + 100 out.
    expect(result.cost_usd).toBeGreaterThan(0);
  });

  it("repairs once with the validator's errors", async () => {
    const model = new ScriptedModel(["Brief [1].", '{"position": 7}', '```json\n{"position": "Chief of Protocol"}\n```']);
    const result = await run(schema, model);
    expect(result.typed).toEqual({ position: "Chief of Protocol" });
    const repair = model.requests[2]!.messages.at(-1)!.content;
    expect(repair).toMatch(/Validator errors/);
    expect(repair).toMatch(/position/);
  });

  it("fails with the validation error after the one repair", async () => {
    const model = new ScriptedModel(["Brief [1].", '{"position": 7}', '{"wrong": true}']);
    await expect(run(schema, model)).rejects.toBeInstanceOf(TypedOutputError);
  });
});
