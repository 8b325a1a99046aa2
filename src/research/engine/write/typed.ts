import { llmCostUsd } from "../../pricing";
import type { ChatMessage, ChatModel } from "../../providers/types";
import type { CitationDto } from "../../shapes";
import type { Budget } from "../budget";
import { type FoundBeforeFailure, TypedOutputError, UnsupportedFieldsError } from "../errors";
import type { EvidenceAnalysis } from "../evidence";
import { typedOutputPrompt, typedRepairPrompt } from "../prompts";
import type { QueryAnalysis } from "../question";
import type { Synthesis } from "./brief-writer";
import { basisCitations } from "./typed-basis";
import { TypedEvidence } from "./typed-evidence";
import { fieldOf } from "./typed-field";
import { type Proposal, resolve } from "./typed-resolve";
import { allowsNull, type CompiledSchema, formatErrors, validationErrors } from "./typed-schema";

export { type CompiledSchema, compileSchema, validationErrors } from "./typed-schema";

/**
 * Typed output: the research re-cast into an object that conforms to the caller's JSON Schema,
 * holding only values a cited passage supports. Offline the values are taken from the evidence;
 * with a model, the model writes the JSON (one repair turn for errors of form) and each of its
 * values is then checked the same way. A field without support is null, left out, or (required)
 * fails the job with UnsupportedFieldsError; the result is validated before it is returned.
 */
export interface TypedContext {
  query: QueryAnalysis;
  analysis: EvidenceAnalysis;
  synthesis: Synthesis;
  llm: ChatModel | null;
  budget: Budget;
  signal?: AbortSignal;
}

export interface TypedOutput {
  value: unknown;
  /** The basis of each value: entries with `field` and `confidence`. */
  citations: CitationDto[];
}

export async function typedOutput(compiled: CompiledSchema, context: TypedContext): Promise<TypedOutput> {
  const { synthesis, budget } = context;
  const found: FoundBeforeFailure = { brief: synthesis.brief, sources: synthesis.sources, citations: synthesis.citations };
  const proposal = context.llm ? await modelProposal(compiled, context, found) : null;
  const evidence = TypedEvidence.of(synthesis, context.query, context.analysis);
  const root = compiled.schema;
  const resolved = resolve(fieldOf(root, root, "", ""), evidence, proposal);
  if (!resolved.ok && !allowsNull(root, root)) throw new UnsupportedFieldsError(resolved.missing.length > 0 ? resolved.missing : ["(root)"], budget.costUsd, found);
  const value = resolved.ok ? resolved.value : null;
  const errors = validationErrors(compiled, value);
  if (errors.length > 0) throw new TypedOutputError(`The typed output does not conform to response_schema: ${errors.join("; ")}`, errors, budget.costUsd, found);
  return { value, citations: resolved.ok ? basisCitations(resolved.basis, synthesis) : [] };
}

function parseJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  const start = body.search(/[[{]/);
  if (start < 0) throw new Error("no JSON value in the answer");
  return JSON.parse(body.slice(start, Math.max(body.lastIndexOf("}"), body.lastIndexOf("]")) + 1));
}

/**
 * The model's JSON, well-formed for the schema (a field it set to null or left out is not an
 * error of form: it says nothing supports the field). One repair turn gets the validator's
 * errors. Null when the envelope cannot pay for the first call: the output is then filled offline.
 */
async function modelProposal(compiled: CompiledSchema, context: TypedContext, found: FoundBeforeFailure): Promise<Proposal> {
  const llm = context.llm!;
  const sources = context.synthesis.sources.map((source, index) => `[${index + 1}] ${source.title} <${source.url}>`).join("\n");
  const { system, user: prompt } = typedOutputPrompt(compiled.schema, context.query.question, context.synthesis.brief, sources);
  const messages: ChatMessage[] = [{ role: "user", content: prompt }];
  let errors: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    // The model is only asked when the envelope can pay for the call (prompt + a full answer).
    const estimate = llmCostUsd(Math.ceil((system.length + messages.reduce((sum, message) => sum + message.content.length, 0)) / 4), 2000);
    if (!context.budget.canAfford(estimate)) {
      if (attempt === 0) return null;
      break;
    }
    if (attempt === 1) messages.push({ role: "user", content: typedRepairPrompt(errors) });
    const response = await llm.complete({ system, messages: [...messages], maxTokens: 2000, json: true, signal: context.signal });
    context.budget.chargeUsd(llmCostUsd(response.inputTokens, response.outputTokens));
    messages.push({ role: "assistant", content: response.text });
    let value: unknown;
    try {
      value = parseJson(response.text);
    } catch (error) {
      errors = [`the answer is not JSON: ${error instanceof Error ? error.message : String(error)}`];
      continue;
    }
    errors = formatErrors(compiled, value);
    if (errors.length === 0) return { value };
  }
  throw new TypedOutputError(`The typed output does not conform to response_schema: ${errors.join("; ")}`, errors, context.budget.costUsd, found);
}
