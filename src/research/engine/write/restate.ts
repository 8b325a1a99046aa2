/**
 * Turns a question and its answer into a declarative sentence in the engine's own words:
 * "Where did the director of Hell's Kitchen die?" + "Paris" -> "The director of Hell's Kitchen
 * died in Paris." A handful of English question shapes cover most questions; any other shape
 * returns null and the brief says "The answer is ..." instead.
 */

const AUX = new Set(["is", "was", "are", "were", "has", "have", "had", "did", "does", "do", "can", "could", "will", "would", "should", "may", "might"]);
const DO = new Set(["did", "does", "do"]);
const COPULA = new Set(["is", "was", "are", "were"]);
const MODAL = new Set(["can", "could", "will", "would", "should", "may", "might", "has", "have", "had"]);

const IRREGULAR_PAST: Record<string, string> = {
  be: "was", have: "had", do: "did", go: "went", win: "won", make: "made", write: "wrote", become: "became", take: "took", hold: "held",
  lead: "led", run: "ran", begin: "began", sing: "sang", give: "gave", come: "came", leave: "left", teach: "taught", buy: "bought",
  build: "built", get: "got", find: "found", know: "knew", see: "saw", say: "said", tell: "told", think: "thought", bring: "brought",
  meet: "met", sell: "sold", spend: "spent", grow: "grew", draw: "drew", fly: "flew", fall: "fell", feel: "felt", keep: "kept",
  lose: "lost", send: "sent", stand: "stood", speak: "spoke", choose: "chose", drive: "drove", ride: "rode", rise: "rose", shoot: "shot",
  fight: "fought", wear: "wore", throw: "threw", eat: "ate", put: "put", set: "set", let: "let", cut: "cut", hit: "hit", read: "read",
  sit: "sat", strike: "struck", swim: "swam", wake: "woke", play: "played", stay: "stayed", star: "starred", plan: "planned", stop: "stopped",
};
const PAST_FORMS = new Set([...Object.values(IRREGULAR_PAST), "born", "known", "held", "built", "written", "made", "named", "called", "located", "based", "founded", "released"]);

function past(verb: string): string {
  const lower = verb.toLowerCase();
  if (IRREGULAR_PAST[lower]) return IRREGULAR_PAST[lower]!;
  if (lower.endsWith("e")) return `${verb}d`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

function present(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower === "have") return "has";
  if (lower === "do") return "does";
  if (/(s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** A word that reads as a finite or passive verb right after the wh-phrase: "won", "directed", "was". */
function isVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return AUX.has(lower) || PAST_FORMS.has(lower) || /^[a-z]+ed$/.test(lower) || /^[a-z]+(?:es|s)$/.test(lower) && !/ss$/.test(lower) && lower.length > 3;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The preposition that introduces an answer of this type after a verb phrase ("died in Paris", "born on July 16, 1966"). */
function preposition(type: string, answer: string): string {
  if (type === "place" || type === "year") return "in ";
  if (type === "date") return /\d{1,2},? \d{4}|\d{1,2} [A-Z][a-z]+ \d{4}/.test(answer) ? "on " : "in ";
  return "";
}

export function restate(question: string, answer: string, type: string): string | null {
  const q = question.trim().replace(/\s*\?+\s*$/, "").replace(/\s+/g, " ");
  const tokens = q.split(" ");
  const first = tokens[0]?.toLowerCase() ?? "";
  const lead = /^(in|at|from|on|by|for|to|with)$/.test(first) ? tokens.shift()!.toLowerCase() : null;
  const wh = tokens[0]?.toLowerCase() ?? "";

  const inSitu = restateInSitu(q, answer);
  if (inSitu) return inSitu;
  if (!/^(what|which|who|whom|whose|where|when|how)$/.test(wh)) return null;

  // The wh-phrase: the wh-word and the noun words after it ("what government position", "how many people").
  let index = 1;
  if (wh === "how") {
    if (!/^(many|much|long|old|tall|high|far|large|big)$/i.test(tokens[1] ?? "")) return null;
    index = 2;
  }
  while (index < tokens.length && !isVerb(tokens[index]!)) index++;
  if (index >= tokens.length) return null;
  const noun = tokens.slice(wh === "how" ? 2 : 1, index).join(" ");
  const verb = tokens[index]!;
  const rest = tokens.slice(index + 1);
  const verbLower = verb.toLowerCase();
  const prep = lead ? `${lead} ` : preposition(type, answer);
  const answerWithNoun = wh === "how" && noun ? `${answer}${new RegExp(`\\b${noun.split(" ").pop()}\\b`, "i").test(answer) ? "" : ` ${noun}`}` : answer;

  if (DO.has(verbLower) && rest.length >= 2) {
    // "Where did S V rest" -> "S V-ed rest in A"; "What year did S V rest" -> "S V-ed rest in A".
    const mainIndex = findMainVerb(rest);
    if (mainIndex < 1) return null;
    const subject = rest.slice(0, mainIndex).join(" ");
    const main = rest[mainIndex]!;
    const after = rest.slice(mainIndex + 1).join(" ");
    const inflected = verbLower === "did" ? past(main) : verbLower === "does" ? present(main) : main;
    if (wh === "how") return `${capitalise(subject)} ${inflected} ${answerWithNoun}${after ? ` ${after}` : ""}.`;
    const objectQuestion = wh === "who" || wh === "whom" || ((wh === "what" || wh === "which") && type !== "year" && type !== "date" && type !== "place");
    if (objectQuestion && !lead) return `${capitalise(subject)} ${inflected} ${answer}${after ? ` ${after}` : ""}.`;
    return `${capitalise(subject)} ${inflected}${after ? ` ${after}` : ""} ${prep}${answer}.`;
  }
  if (COPULA.has(verbLower) || MODAL.has(verbLower)) {
    if (rest.length === 0) return null;
    const isParticiple = (word: string) => PAST_FORMS.has(word.toLowerCase()) || /^[a-z]+ed$/.test(word);
    // "was the player who scored twice in the final born": a participle closing the question is
    // the predicate; one inside the subject ("who scored") is not, nor one with its own
    // auxiliary ("the person after whom the city is named").
    const closing = rest.length > 1 && isParticiple(rest[rest.length - 1]!);
    const ownAuxiliary = closing && AUX.has(rest[rest.length - 2]!.toLowerCase());
    const participle = closing ? (ownAuxiliary ? -1 : rest.length - 1) : rest.findIndex(isParticiple);
    if (participle === 0 && (wh === "who" || wh === "what" || wh === "which")) {
      // A subject question in the passive: "What position was held by X" -> "A was held by X".
      return `${capitalise(answer)} ${verb} ${rest.join(" ")}.`;
    }
    if ((wh === "where" || wh === "when" || type === "year" || type === "date" || type === "place") && participle > 0) {
      // "Where was S born" -> "S was born in A".
      const subject = rest.slice(0, participle).join(" ");
      return `${capitalise(subject)} ${verb} ${rest.slice(participle).join(" ")} ${prep}${answer}.`;
    }
    if (wh === "how" && MODAL.has(verbLower)) {
      // "How many people can S seat" -> "S can seat A people".
      const mainIndex = findMainVerb(rest);
      if (mainIndex < 1) return null;
      return `${capitalise(rest.slice(0, mainIndex).join(" "))} ${verb} ${rest.slice(mainIndex).join(" ")} ${answerWithNoun}.`.replace(/\s+\./, ".");
    }
    if (COPULA.has(verbLower) && (wh === "who" || wh === "what" || wh === "which")) {
      // "Who is the spouse of Y" -> "The spouse of Y is A".
      return `${capitalise(rest.join(" "))} ${verb} ${answer}.`;
    }
    if (wh === "where" && COPULA.has(verbLower)) return `${capitalise(rest.join(" "))} ${verb} in ${answer}.`;
    return null;
  }
  // A subject question: "Who directed X" / "Which team won the final" -> "A directed X".
  if (wh === "who" || wh === "what" || wh === "which") return `${capitalise(answer)} ${verb} ${rest.join(" ")}.`.replace(/\s+\./, ".");
  return null;
}

/** In-situ: "X is based in what New York city" -> "X is based in Greenwich Village"; "formed by who". */
function restateInSitu(q: string, answer: string): string | null {
  const inSituWho = /^(.{8,}?)\b(?:who|whom)$/iu.exec(q);
  if (inSituWho && !/^(what|which|who|whom|where|when|how)\b/i.test(q)) return `${capitalise(inSituWho[1]!.trim())} ${answer}.`;
  const inSituCount = /^(.{8,}?)\bhow (?:many|much)\b((?:\s+[\p{L}'’-]+){0,3})$/iu.exec(q);
  if (inSituCount && !/^(what|which|who|whom|where|when|how)\b/i.test(q)) {
    const noun = inSituCount[2]!.trim();
    const last = noun.split(" ").pop() ?? "";
    return `${capitalise(inSituCount[1]!.trim())} ${answer}${noun && !answer.toLowerCase().includes(last.toLowerCase()) ? ` ${noun}` : ""}.`;
  }
  const inSitu = /^(.{8,}?)\b(?:what|which)\b((?:\s+[\p{L}'’-]+){0,4})$/iu.exec(q);
  if (inSitu && !/^(what|which|who|whom|where|when|how)\b/i.test(q) && !/^(in|at|from|on|by|for|to|with)\s+(what|which)\b/i.test(q)) {
    const tail = inSitu[2]!.trim().split(" ").filter(Boolean);
    if (!tail.some((word) => AUX.has(word.toLowerCase()))) return `${capitalise(inSitu[1]!.trim())} ${answer}.`;
  }
  return null;
}

const FUNCTION_WORDS = /^(the|a|an|of|and|or|in|on|for|from|to|with|by|at|as|his|her|their|its|this|that|these|those|who|which|whose|where)$/;

/**
 * The main verb after the subject of "did S V ...": the first lower-case word that does not
 * follow an article, preposition or possessive (those open a noun: "the director") and is not
 * followed by "of" ("director of").
 */
function findMainVerb(words: string[]): number {
  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    const previous = words[index - 1]!.toLowerCase();
    if (!/^[a-z]+$/.test(word) || FUNCTION_WORDS.test(word)) continue;
    if (FUNCTION_WORDS.test(previous) || /['’]s$/.test(previous)) continue;
    // After "did" the main verb is a bare form: "supported", "made" belong to a relative clause.
    if (/ed$/.test(word) || PAST_FORMS.has(word)) continue;
    // "Vincent van Gogh": a lower-case word between capitals is part of a name.
    if (/^\p{Lu}/u.test(words[index - 1]!) && /^\p{Lu}/u.test(words[index + 1] ?? "")) continue;
    if (words[index + 1]?.toLowerCase() === "of") continue;
    if (/^(film|album|song|band|novel|book|series|group|team|company|show|game|city|river)$/.test(word)) continue;
    return index;
  }
  return -1;
}
