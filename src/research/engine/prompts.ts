/**
 * Every instruction the engine gives a hosted model, in one place: the wording is part of the
 * product and is reviewed as such. Each function returns the system text and the user prompt
 * of one call; `model/call.ts` gates and charges it, and the stage that asks checks the answer.
 */

export interface Prompt {
  system: string;
  user: string;
}

/**
 * The brief and the short answer from numbered evidence (write stage), as JSON. Every sentence
 * must cite; the engine drops a marker whose source does not support its sentence, a sentence
 * left without one, and an answer its cited sources do not support. `report` (pro and max) asks
 * for the longer report with sections and the questions the sources leave open.
 */
export function writePrompt(question: string, evidenceBlocks: string[], report: boolean): Prompt {
  return {
    system: report ? WRITE_REPORT_SYSTEM : WRITE_BRIEF_SYSTEM,
    user: `Question: ${question}\n\nSources:\n${evidenceBlocks.join("\n\n")}`,
  };
}

const WRITE_RULES =
  "Use the numbered sources only, never what you know. " +
  "Every sentence of the brief must end with one or more citations like [1] or [2][3] naming the sources that state it. Never cite a number that is not listed. No sentence without a citation: the engine checks each one against the sources it cites and removes what they do not state. " +
  'The answer is the short answer to the question as a QA dataset gives it (an entity, a date, a number, a place, "yes" or "no"; for an open question one sentence), ' +
  'with your confidence ("high": a source states it; "medium": it follows from what the sources state; "low": a guess) and the numbers of the sources that state it. ' +
  "When the sources do not answer the question, the answer is null: an honest null is better than a guess. " +
  "Answer with one JSON object only, no prose around it.";

const WRITE_BRIEF_SYSTEM =
  "You are a research analyst. Write a concise brief answering the question from the numbered sources. " +
  "Open with one sentence that answers the question directly in your own words when the sources support an answer (yes or no first for yes/no questions); if they do not, say what they establish. " +
  "Then the key findings as bullet points (lines starting with \"- \"), without repeating source titles. " +
  WRITE_RULES +
  ' JSON: {"brief": "<Markdown>", "answer": {"text": "...", "confidence": "high", "sources": [1]} or null}';

const WRITE_REPORT_SYSTEM =
  "You are a research analyst. Write a research report answering the question from the numbered sources. " +
  "Open with a short paragraph that answers the question directly in your own words when the sources support an answer (yes or no first for yes/no questions); if they do not, say what they establish. " +
  'Then a section "## Findings" with the findings as bullet points (lines starting with "- "), and further "## " sections where the material calls for them. ' +
  'List in "open_questions" what the question asks that the sources leave open, each as a question ending with "?" (none when they answer everything). ' +
  WRITE_RULES +
  ' JSON: {"brief": "<Markdown>", "answer": {"text": "...", "confidence": "high", "sources": [1]} or null, "open_questions": ["...?"]}';

/** The critic (pro, max): each numbered claim judged against the exact quotes it cites. */
export function criticPrompt(question: string, claimBlocks: string[]): Prompt {
  return {
    system:
      "You are a fact checker. Each numbered claim below comes with the exact quotes from the sources it cites. " +
      'Judge every claim only against its own quotes, never against what you know: "supported" when the quotes state everything the claim says, ' +
      '"partly" when they state some of it and the rest is not in them, "unsupported" when they do not state it. ' +
      'Answer with one JSON object only: {"verdicts": [{"id": 1, "verdict": "supported"}, ...]}, one entry per claim.',
    user: `Question: ${question}\n\nClaims:\n${claimBlocks.join("\n\n")}`,
  };
}

/** The typed output as JSON conforming to the caller's schema (write stage); the engine validates it and keeps only supported values. */
export function typedOutputPrompt(schema: unknown, question: string, brief: string, sourceList: string): Prompt {
  return {
    system:
      "You convert a research brief into JSON. Answer with one JSON value only, no prose, that conforms to the JSON Schema given. Use only facts from the brief and sources. " +
      "A value the brief and sources do not state is null (or left out when the field is optional); never guess one. " +
      "A number, year or count must be written in the brief as it is stated there: never count, add up or estimate one yourself, and never write 0 for a value you do not know. " +
      "A true/false field is the brief's own yes or no; when the brief does not say yes or no, it is null. " +
      "Every value is checked against the sources, and a value they do not support is removed.",
    user: `JSON Schema:\n${JSON.stringify(schema)}\n\nQuestion: ${question}\n\nBrief:\n${brief}\n\nSources:\n${sourceList}`,
  };
}

/** The repair turn of any JSON answer that could not be used (not JSON, or the validator's errors). */
export function repairPrompt(problem: string): string {
  return `That answer cannot be used. Validator errors:\n${problem}\nAnswer again with the corrected JSON only, no prose.`;
}
