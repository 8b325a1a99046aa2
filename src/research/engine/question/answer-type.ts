import { terms } from "../language";
import { SAID_WHEN } from "./said-when";

/** "What did X say (in YEAR) about / describe / view …": what was said, not a name. */
const SAYS_WHAT = new RegExp(
  String.raw`^\s*what (?:did|do|does|have|has|had|would)\b.*?\b(?:(?:say|said|talk|think|write|wrote|speak|feel)\s+(?:${SAID_WHEN}\s+)?(?:about|of|on|regarding)|describe|view|discuss|explain|characteri[sz]e|portray)\b`,
  "i",
);

/** What kind of answer a question asks for. */
export type AnswerType = "person" | "place" | "date" | "year" | "number" | "entity" | "yes_no" | "choice" | "description";

const MONTH_OR_DATE = /\b(date|day|month|birthday)\b/i;

/** Nouns that name a person: "which novelist", "what is the name of the chief justice". */
const PERSON_NOUNS =
  "person|man|woman|actor|actress|singer|writer|author|director|player|president|king|queen|politician|artist|musician|composer|architect|founder|screenwriter|songwriter|novelist|poet|playwright|painter|sculptor|journalist|comedian|rapper|guitarist|drummer|vocalist|footballer|philosopher|scientist|physicist|chemist|economist|mathematician|inventor|explorer|astronaut|businessman|businesswoman|entrepreneur|emperor|empress|prince|princess|pope|bishop|lawyer|activist|dancer|pianist|conductor|filmmaker|photographer|cartoonist|illustrator|historian|biographer|justice|mayor|governor|minister|chancellor|premier|senator|monarch";
const ASKS_PERSON_NOUN = new RegExp(
  `\\b(?:what|which) (?:[\\w.'-]+ ){0,3}(?:${PERSON_NOUNS})\\b|\\bwhat (?:is|was|are|were) the names? of (?:the |a |an )?(?:[\\w.'-]+ ){0,2}(?:${PERSON_NOUNS})\\b`,
);

/** The answer type of a question, from its wh-phrase and the noun it asks about. */
export function answerType(question: string, kind: "yes_no" | "choice" | "open" | string): AnswerType {
  if (kind === "yes_no") return "yes_no";
  if (kind === "choice") return "choice";
  // "What did President Roosevelt say ...": a title before a name is part of the name, not the asked noun.
  const q = question.replace(/\b(?:President|Senator|Governor|General|King|Queen)\s+(?=\p{Lu})/gu, "").toLowerCase();
  if (
    /\bhow (many|much)\b|\bwhat (?:is|was|were|are) the (?:\d{4}\s+)?(?:(?:usual|average|mean|typical|total|annual|maximum|minimum|estimated)\s+)*(?:population|number|capacity|size|length|height|area|elevation|altitude|depth|width|weight|distance|speed|snowfall|rainfall|precipitation|temperature|percentage|budget|revenue|attendance)\b(?! (?:rank|ranking|density)\b)|\bhow (?:long|tall|high|old|far|large|big|deep|wide|heavy)\b/.test(
      q,
    )
  )
    return "number";
  if (/\b(what|which) (years?|decades?|century|centuries|time|period|era)\b/.test(q)) return "year";
  if (
    /^\s*when\b|\bwhen (?:was|were|did|is|does)\b|\b(?:date|day) of (?:birth|death)\b|\bbirth ?date\b|\bbirthday\b/.test(q) ||
    (/\b(what|which)\b/.test(q) && MONTH_OR_DATE.test(q) && /\b(what|which) (?:\w+ )?(date|day|month)\b/.test(q))
  )
    return "date";
  if (
    /^\s*(?:in |at |from )?where\b|\bwhere (?:was|were|did|is|does|do|are)\b|\b(what|which) (?:[\w'-]+ ){0,3}(city|town|country|state|place|county|province|region|village|island|neighbou?rhood|borough|location|continent|district|prefecture|township|community|suburb|municipality|parish|estate|street|square|venue|stadium|arena)\b/.test(
      q,
    )
  )
    return "place";
  // "… a boy group that was formed by who?": the maker asked last is as often a company ("YG
  // Entertainment") as a person, so it asks for a name of no kind; any other "who" asked last a person.
  if (
    /\b(?:formed|founded|created|established|owned|published|produced|released|developed|manufactured|operated|acquired|sponsored|built|designed|distributed|run|managed|organi[sz]ed)\s+by\s+(?:who|whom)\s*\??\s*$/.test(
      q,
    )
  )
    return "entity";
  if (/\b(?:who|whom)\s*\??\s*$/.test(q)) return "person";
  if (/^\s*(?:to |by |with |for |from )?(who|whom|whose)\b/.test(q) || ASKS_PERSON_NOUN.test(q)) return "person";
  // "What did the McKinley Tariff do?", "What happened at X?", "What was the effect of X?" ask for an
  // account, not a name: a span restated as "The McKinley Tariff did President McKinley" would be wrong.
  if (
    /^\s*what (?:did|does|do)\b.*\bdo\s*\??\s*$|^\s*what (?:happened|happens)\b|^\s*what (?:is|was|were|are) the (?:effects?|impacts?|significance|role|purpose|consequences?|outcome|results?) of\b/.test(
      q,
    )
  )
    return "description";
  // "What kind of university did X attend?" asks for a class ("a land-grant university"), which no
  // name span says: "Rutgers University" is one university, "New Jersey" where it is. ("What type
  // of plane …" is left open: it is answered by a model's name, "Boeing B-29 Superfortress".)
  if (/\b(?:what|which) (?:kinds?|sorts?) of\b/.test(q)) return "description";
  // "What did presidents say about tariffs?" asks for what was said (its span was "Manifestly");
  // "What did Tolkien write in 1937?" still asks for a title.
  if (SAYS_WHAT.test(q)) return "description";
  if (/\b(what|which)\b/.test(q)) return "entity";
  return "description";
}

const VERBISH = /^(is|was|are|were|has|have|had|did|does|do|can|could|will|would|that|which|who|whose|in|on|at|of|for|from|by|to|with|\w+ed)$/i;

const NAME_OF = /\b(?:what|which)\s+(?:is|was|are|were)\s+the\s+(?:names?|titles?)\s+of\s+(?:the\s+|a\s+|an\s+)?([^,?]+)/i;

/** The noun a wh-phrase asks for: the words after "what"/"which" up to the verb ("what government position was ..."). */
export function askedNounOf(question: string): string[] {
  // "What is the name of the waterfall in Zambia?" asks for a waterfall, as "what waterfall" does.
  // (Not "the name of Bob's wife": a name there is the question's entity.)
  const nameOf = NAME_OF.exec(question);
  const match = (nameOf && /^\p{Ll}/u.test(nameOf[1]!) ? nameOf : null) ?? /\b(?:what|which)\s+([^,?]+)/i.exec(question);
  if (!match) return [];
  const out: string[] = [];
  for (const word of match[1]!.split(/\s+/)) {
    if (VERBISH.test(word)) break;
    out.push(word);
  }
  return terms(out.join(" "));
}
