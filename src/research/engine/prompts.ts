/**
 * Every instruction the engine gives a hosted model, in one place: the wording is part of the
 * product and is reviewed as such. Each function returns the system text and the user prompt
 * of one call; the stage that makes the call owns its budget gate and the check of the answer.
 */

export interface Prompt {
  system: string;
  user: string;
}

/** The brief from numbered evidence (write stage). Every sentence must cite; the engine drops those that cannot be traced to a passage. */
export function briefPrompt(question: string, evidenceBlocks: string[]): Prompt {
  return {
    system:
      "You are a research analyst. Write a concise brief answering the question from the numbered sources only. " +
      "Open with one sentence that answers the question directly in your own words when the sources support an answer (yes or no first for yes/no questions); if they do not, say so. " +
      "Then the key findings as bullet points, without repeating source titles. " +
      "Every sentence must end with one or more citations like [1] or [2][3] that refer to the numbered sources. Never cite a number that is not listed. No sentence without a citation.",
    user: `Question: ${question}\n\nSources:\n${evidenceBlocks.join("\n\n")}`,
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

/** The repair turn after a typed output failed validation. */
export function typedRepairPrompt(errors: string[]): string {
  return `That JSON does not conform to the schema. Validator errors:\n${errors.join("\n")}\nAnswer again with corrected JSON only.`;
}
