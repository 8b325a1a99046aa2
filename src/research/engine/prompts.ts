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
 * The question decomposed before wave 1 (plan stage): its sub-questions and the searches that
 * would answer them. The engine keeps at most `maxQueries` searches, never an empty one.
 */
export function planPrompt(question: string, maxQueries: number): Prompt {
  return {
    system:
      "You plan the web searches of a research job. Break the question into the sub-questions that must be answered to answer it (for a multi-step question, one per step, in order), " +
      "then write the search queries that would find the pages answering them: short keyword queries such as a person's or a work's name, or a name with the fact asked, not whole sentences. " +
      "Search first for what the question names; a later step can only be searched once an earlier one is known, so do not guess its answer. " +
      "The user message says how many queries at most. " +
      'Answer with one JSON object only, no prose: {"sub_questions": ["..."], "queries": ["..."]}.',
    user: `Question: ${question}\n\nAt most ${maxQueries} queries.`,
  };
}

/**
 * After each wave (reflect stage): whether what was read answers the question, which
 * sub-question is still open, what to search next and which of the listed pages to read next.
 * The engine reads only pages from the list it gave, never repeats a search, and stops gathering
 * when the model says the question is answered.
 */
export function reflectPrompt(parts: {
  question: string;
  subQuestions: string[];
  passages: string[];
  searched: string[];
  pages: string[];
  maxQueries: number;
  maxUrls: number;
}): Prompt {
  const subQuestions = parts.subQuestions.length > 0 ? parts.subQuestions.map((text, index) => `${index + 1}. ${text}`).join("\n") : "(none planned)";
  const pages = parts.pages.length > 0 ? parts.pages.join("\n") : "(none)";
  return {
    system:
      "You direct a research job between rounds of web searching. From the numbered passages read so far, decide whether they already answer the question and every sub-question. " +
      "If they do, set answered to true and leave queries and urls empty. " +
      "If not, name the sub-question still open and say what to do next: new search queries (short keyword queries, never one already searched; " +
      "when a passage names the person, work or place the next step is about, search for that name), and pages to read next, chosen only from the listed pages not yet read (copy the URL exactly). " +
      'When a page already read likely says more than its passages shown (a date, a figure, a name the question needs), put its number in "more_of": the rest of that page is shown next. ' +
      "The user message says how many queries and pages at most. " +
      'Answer with one JSON object only, no prose: {"answered": true or false, "open_sub_question": "..." or null, "queries": ["..."], "urls": ["..."], "more_of": [1]}.',
    user:
      `Question: ${parts.question}\n\nSub-questions:\n${subQuestions}\n\nPassages read:\n${parts.passages.join("\n\n")}\n\n` +
      `Already searched:\n${parts.searched.map((text) => `- ${text}`).join("\n") || "(nothing)"}\n\nPages not yet read:\n${pages}\n\n` +
      `At most ${parts.maxQueries} queries and ${parts.maxUrls} pages.`,
  };
}

/**
 * The brief and the short answer from numbered evidence (write stage), as JSON claims that carry
 * their verbatim quotes: the engine checks every quote against its source's full text
 * and every name and number of a claim against its quotes, and sends what fails back once
 * (revisePrompt). `report` (pro and max) asks for the longer report with sections and the
 * questions the sources leave open.
 */
export function writePrompt(question: string, evidenceBlocks: string[], report: boolean): Prompt {
  return {
    system: report ? WRITE_REPORT_SYSTEM : WRITE_BRIEF_SYSTEM,
    user: `Question: ${question}\n\nSources:\n${evidenceBlocks.join("\n\n")}`,
  };
}

const CLAIM_RULES =
  "Use the numbered sources only, never what you know. Write the brief as claims in reading order. " +
  "Each claim is one sentence in your own words, with the quotes it rests on: each quote copied exactly, word for word, from the numbered source it names (a sentence or a clause of at least a few words; mark a gap with ...). " +
  "A claim may quote several sources, as a comparison or a synthesis does. Every name, number and date a claim states must be in its quotes or in the title of a source it quotes. " +
  'A source\'s date and author (after its title, and as its sentence "This page was published on ...") are those of that page, never of what it is about: quote that sentence to say when a page was published or who wrote it, and use the dates to order what the sources say in time. ' +
  "Name the person or thing each claim is about: never start a claim with he, she, it, they or this. " +
  "The engine checks every quote against the full text of its source and every name and number against the quotes, and sends back what fails. ";

const ANSWER_RULES =
  'The answer is the short answer to the question as a QA dataset gives it (an entity, a date, a number, a place, "yes" or "no"; for an open question one sentence), ' +
  'with your confidence ("high": a quote states it for the subject asked about; "medium": it follows from what the quotes state; "low": a guess) and the quotes that state it (for a yes/no or a comparison, the quotes that state each side). ' +
  "When the sources do not answer the question, the answer is null: an honest null is better than a guess. " +
  "Answer with one JSON object only, no prose around it.";

const CLAIM_JSON = '{"text": "...", "quotes": [{"source": 1, "quote": "..."}], "heading": null, "bullet": false}';
const ANSWER_JSON = '"answer": {"text": "...", "confidence": "high", "quotes": [{"source": 1, "quote": "..."}]} or null';

const WRITE_BRIEF_SYSTEM =
  "You are a research analyst. Write a concise brief answering the question from the numbered sources. " +
  "The first claims (heading null, bullet false) are the opening: one sentence that answers the question directly when the sources support an answer (yes or no first for yes/no questions); if they do not, what they establish. " +
  "Then the key findings as bullets (bullet true), optionally grouped under a short heading naming what they are about, without repeating source titles. " +
  CLAIM_RULES +
  ANSWER_RULES +
  ` JSON: {"claims": [${CLAIM_JSON}, ...], ${ANSWER_JSON}}`;

const WRITE_REPORT_SYSTEM =
  "You are a research analyst. Write a research report answering the question from the numbered sources. " +
  "The first claims (heading null, bullet false) are the opening paragraph: it answers the question directly when the sources support an answer (yes or no first for yes/no questions); if they do not, it says what they establish. " +
  'Then the findings as bullets under the heading "Findings" (bullet true), and further headings where the material calls for them. ' +
  'List in "open_questions" what the question asks that the sources leave open, each as a question ending with "?" (none when they answer everything). ' +
  CLAIM_RULES +
  ANSWER_RULES +
  ` JSON: {"claims": [${CLAIM_JSON}, ...], ${ANSWER_JSON}, "open_questions": ["...?"]}`;

/**
 * The one revise turn of the write stage: the claims (and the answer) that failed their check, each
 * with why, to be corrected from the same numbered sources or withdrawn.
 */
export function revisePrompt(question: string, evidenceBlocks: string[], failures: string[]): Prompt {
  return {
    system:
      "You are revising a research brief's claims that failed a check against their sources. For each claim below: correct it so that every quote is copied word for word from the numbered source it names and its quotes hold every name, number and date it states, or withdraw it when the sources do not state it. " +
      "Keep each claim's meaning where the sources support it; name its subject (no he, she, it, they or this); use the numbered sources only. " +
      'Answer with one JSON object only: {"claims": [{"id": 1, "text": "...", "quotes": [{"source": 2, "quote": "..."}]} or {"id": 1, "withdraw": true}, ...], "answer": {"text": "...", "quotes": [...]} or {"withdraw": true} (only when the answer is listed)}.',
    user: `Question: ${question}\n\nSources:\n${evidenceBlocks.join("\n\n")}\n\nClaims to revise:\n${failures.join("\n\n")}`,
  };
}

/** The critic (every mode whose envelope pays for it): each numbered claim judged against the exact quotes it cites. */
export function criticPrompt(question: string, claimBlocks: string[]): Prompt {
  return {
    system:
      "You are a fact checker. Each numbered claim below comes with the exact quotes from the sources it cites, each with its page's title in parentheses (a page's he, she or it is the subject its title names). " +
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
