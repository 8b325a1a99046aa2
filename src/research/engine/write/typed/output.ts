import { z } from "zod";
import type { CitationDto, ShortAnswer } from "../../../shapes";
import type { Budget } from "../../budget";
import { TypedOutputError, UnsupportedFieldsError } from "../../errors";
import type { EvidenceAnalysis } from "../../evidence";
import { askModel, evidenceChars, fitBlocks, type ModelContext } from "../../model";
import { typedOutputPrompt } from "../../prompts";
import type { QueryAnalysis } from "../../question";
import type { Synthesis } from "../brief-writer";
import { basisCitations } from "./basis";
import { TypedEvidence } from "./evidence";
import { fieldOf } from "./field";
import { type Proposal, resolve } from "./resolve";
import { allowsNull, type CompiledSchema, formatErrors, validationErrors } from "./schema";

export { type CompiledSchema, compileSchema, validationErrors } from "./schema";

/**
 * Typed output: the research re-cast into an object that conforms to the caller's JSON Schema,
 * holding only values a cited passage supports. Offline the values are taken from the evidence;
 * with a model, the model writes the JSON (askModel: JSON mode, a tolerant parse, one repair turn
 * for errors of form) and each of its values is then checked the same way; when the model's call
 * cannot be paid or never gives usable JSON, the output is filled offline. A field without support
 * is null, left out, or (required) fails the job with UnsupportedFieldsError; the result is
 * validated before it is returned.
 */
export interface TypedContext {
  query: QueryAnalysis;
  analysis: EvidenceAnalysis;
  synthesis: Synthesis;
  /** The model and the envelope it draws on (the synthesis reserve); null: filled offline. */
  model: ModelContext | null;
  budget: Budget;
  /** The engine's short answer, when it gave one: a name field may hold it. */
  answer?: ShortAnswer | null;
}

/** What the typed output's call may hold: the brief and the quotes of its sources, in tokens. */
const TYPED_CONTEXT_TOKENS = 8000;
/** The JSON's length at most, in tokens. */
const TYPED_ANSWER_TOKENS = 2000;

export interface TypedOutput {
  value: unknown;
  /** The basis of each value: entries with `field` and `confidence`. */
  citations: CitationDto[];
}

export async function typedOutput(compiled: CompiledSchema, context: TypedContext): Promise<TypedOutput> {
  const { synthesis, budget } = context;
  const proposal = context.model ? await modelProposal(compiled, context, context.model) : null;
  const evidence = TypedEvidence.of(synthesis, context.query, context.analysis, context.answer ?? null);
  const root = compiled.schema;
  const resolved = resolve(fieldOf(root, root, "", ""), evidence, proposal);
  if (!resolved.ok && !allowsNull(root, root)) throw new UnsupportedFieldsError(resolved.missing.length > 0 ? resolved.missing : ["(root)"], budget.costUsd);
  const value = resolved.ok ? resolved.value : null;
  const errors = validationErrors(compiled, value);
  if (errors.length > 0) throw new TypedOutputError(`The typed output does not conform to response_schema: ${errors.join("; ")}.`, errors, budget.costUsd);
  return { value, citations: resolved.ok ? basisCitations(resolved.basis, synthesis) : [] };
}

/**
 * The model's JSON, well-formed for the schema (a field it set to null or left out is not an
 * error of form: it says nothing supports the field), from the brief and the passages its
 * sources were cited for. Null when the call cannot be paid, fails, or its JSON does not conform
 * after the repair turn: the output is then filled offline, under the same rules.
 */
async function modelProposal(compiled: CompiledSchema, context: TypedContext, model: ModelContext): Promise<Proposal> {
  const { synthesis } = context;
  const sources = synthesis.sources.map((source, index) => {
    // Each sentence once: two claims quoting the same sentence each carry their own passage of it.
    const quotes = new Set(
      synthesis.statements.flatMap((statement) =>
        statement.passages.filter((passage) => passage.doc === synthesis.cited[index]!.index).map((passage) => passage.text),
      ),
    );
    return `[${index + 1}] ${source.title} <${source.url}>${[...quotes].map((text) => `\n  "${text}"`).join("")}`;
  });
  const [brief = "", ...fitted] = fitBlocks([synthesis.brief, ...sources], evidenceChars(model.llm, TYPED_CONTEXT_TOKENS, TYPED_ANSWER_TOKENS));
  const prompt = typedOutputPrompt(compiled.schema, context.query.question, brief, fitted.join("\n"));
  // Errors of form are what the repair turn is for; a value left null or out is the resolver's.
  const conforming = z.unknown().superRefine((value, issues) => {
    for (const message of formatErrors(compiled, value)) issues.addIssue({ code: "custom", message });
  });
  const answer = await askModel(model, { stage: "typed", prompt, maxTokens: TYPED_ANSWER_TOKENS, schema: conforming });
  return answer.ok ? { value: answer.value } : null;
}
