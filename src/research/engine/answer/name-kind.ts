import { type Evidence, titleNames } from "../evidence";
import type { QueryAnalysis } from "../question";
import { stem } from "../language";
import { COUNTRIES, isUsState } from "./places";

/** States whose names are as often a person's. */
const PERSONS_NAMES = new Set(["Washington", "Georgia", "Virginia"]);

/**
 * What kind of thing a name is (a person, a place, an organisation, a work), and what kind a
 * question asks for: a span of the wrong kind ("Forum for Democratic Change" for "Who is the
 * opposition leader", "Passchendaele" for "Who did the actor have a child with", "Seattle" for
 * a snowfall) is, on the training questions, the general reader's commonest wrong answer. The
 * kind is read from the name's own page, when one was read (its opening sentence says what it
 * is: "(born 1962)", "is a city in", "is an American rock band"), else from the name's words
 * ("… County", "… Party"). Pure text; unknown when nothing says.
 */
export type NameKind = "person" | "place" | "organisation" | "work";

const PERSON_NOUNS =
  "actor|actress|singer|songwriter|rapper|musician|composer|writer|author|novelist|poet|journalist|director|filmmaker|producer|screenwriter|politician|lawyer|judge|diplomat|businessman|businesswoman|entrepreneur|executive|engineer|scientist|physicist|chemist|biologist|mathematician|economist|historian|philosopher|painter|artist|sculptor|architect|photographer|designer|dancer|comedian|presenter|player|footballer|cricketer|athlete|boxer|wrestler|coach|manager|swimmer|cyclist|driver|racer|soldier|officer|admiral|king|queen|prince|princess|emperor|empress|duke|duchess|countess|nobleman|noblewoman|bishop|priest|monk|saint|model|socialite|activist|inventor|explorer|physician|surgeon|teacher|professor|scholar|translator|illustrator|cartoonist|guitarist|drummer|bassist|pianist|violinist|conductor|vocalist|frontman|chef|pilot|astronaut|spy|criminal|pope|sultan|pharaoh|chieftain|lord|lady|statesman|administrator|academic|critic|editor|publisher|broadcaster|personality|youtuber";
const PLACE_NOUNS =
  "city|town|village|hamlet|county|country|state|province|region|river|lake|mountain|mount|island|islands|archipelago|peninsula|municipality|commune|district|neighbourhood|neighborhood|suburb|capital|borough|parish|community|settlement|place|area|territory|prefecture|canton|valley|bay|sea|ocean|desert|forest|park|street|square|airport|stadium|arena|building|castle|cathedral|mosque|temple|bridge|dam|station";
const ORGANISATION_NOUNS =
  "company|corporation|conglomerate|firm|business|manufacturer|retailer|chain|brand|band|group|duo|trio|quartet|orchestra|choir|party|team|club|franchise|university|college|school|academy|institute|agency|department|ministry|organization|organisation|association|society|union|federation|league|conference|label|network|channel|broadcaster|newspaper|magazine|publisher|airline|studio|foundation|charity|bank|army|regiment|navy|government|council|court|committee|dynasty|movement";
const WORK_NOUNS =
  "film|movie|novel|novella|album|song|single|book|series|show|sitcom|drama|play|opera|musical|video game|game|episode|painting|poem|comic|manga|anime|documentary|soundtrack|ep|mixtape|programme|program|miniseries|story";

/**
 * "is a South Korean film director", "was an American rock band formed in …": the noun phrase a
 * lead's first "is a" opens, up to where a clause or a preposition starts; its last word is what
 * the subject is ("director", not "film").
 */
const DEFINITION =
  /\b(?:is|was|are|were)\s+(?:an?|the|one of the)\s+([^,;:()]*?)(?=\s+(?:in|of|from|on|at|by|for|with|who|that|which|whose|and|or|formed|founded|based|located|directed|written|produced|born|released|created|known|best|situated|near|between|to|since|where|when|starring|featuring|published|set|owned|operated|named|originally|currently|first|along)\b|\s*[,;:()]|\s*$)/iu;
/** "(born 12 May 1962)", "(1751 – 1836)", "(c. 1100 – 1160)": life dates after a name make it a person. */
const LIFE_DATES = /^[^.]{0,120}?\((?:[^()]*?;\s*)?(?:born\b|b\.\s|c\.\s*\d|[^()]*\b\d{3,4}\s*[–-]\s*[^()]*\d{3,4})/u;

const KIND_OF_NOUN = new Map<string, NameKind>(
  (
    [
      ["person", PERSON_NOUNS],
      ["work", WORK_NOUNS],
      ["organisation", ORGANISATION_NOUNS],
      ["place", PLACE_NOUNS],
    ] as const
  ).flatMap(([kind, nouns]) => nouns.split("|").map((noun) => [stem(noun.split(/[\s-]/).pop()!), kind] as const)),
);

/**
 * What a lead defines its subject as: the head noun of its first "is a" phrase ("director" in "is
 * a South Korean film director"), and the sentence from that "is" on (what it says of the subject).
 */
export function definitionOf(lead: string): { head: string; rest: string } | null {
  const match = DEFINITION.exec(lead);
  const head = match?.[1]?.toLowerCase().split(/\s+/).pop();
  return match && head ? { head, rest: lead.slice(match.index) } : null;
}

/** What a page's opening sentence says its subject is; null when it says none of these. */
export function kindFromLead(lead: string): NameKind | null {
  if (LIFE_DATES.test(lead)) return "person";
  const head = definitionOf(lead)?.head;
  return head ? (KIND_OF_NOUN.get(stem(head)) ?? null) : null;
}

const ORGANISATION_WORDS = new Set(
  "party|company|corporation|inc|ltd|llc|group|records|entertainment|studios|pictures|university|college|school|academy|institute|association|society|union|federation|league|conference|council|committee|forum|front|movement|alliance|congress|church|club|fc|agency|department|ministry|bank|airlines|airways|network|foundation|army|navy|band|orchestra|government|court".split(
    "|",
  ),
);
const PLACE_WORDS = new Set(
  "county|city|river|lake|mount|mountain|island|islands|province|state|district|valley|bay|sea|ocean|street|avenue|park|village|town".split("|"),
);

/**
 * The kind a name's words say, by its first or last word ("Forum for Democratic Change" and
 * "Uganda People's Congress" organisations, "Bamberg County" a place; "Park Jin-pyo" none: a word
 * inside or a surname says nothing); null when they say none.
 */
export function kindFromWords(name: string): NameKind | null {
  // A state of the US is a place; not those that are as often a person's name ("Washington", "Georgia", "Virginia").
  if (COUNTRIES.includes(name.trim()) || (isUsState(name) && !PERSONS_NAMES.has(name.trim()))) return "place";
  // "McDowell County, West Virginia": the name before where it is.
  const tokens = (name.split(",")[0] ?? "")
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  const ends = [tokens[0], tokens[tokens.length - 1]].filter((token): token is string => token !== undefined);
  if (ends.some((token) => ORGANISATION_WORDS.has(token))) return "organisation";
  if (tokens.length > 1 && (PLACE_WORDS.has(tokens[tokens.length - 1]!) || tokens[0] === "mount")) return "place";
  return null;
}

/** What a name is: its own page's lead first (a page read whose title is the name), else its words. */
export function kindOfName(name: string, evidence: Evidence): NameKind | null {
  const page = evidence.docs.find((doc) => titleNames(doc.title, name));
  const fromPage = page?.sentences[0] ? kindFromLead(page.sentences[0]) : null;
  return fromPage ?? kindFromWords(name);
}

/** The nouns a question may ask a name by ("what band", "which actress"), by the kind of name they ask. */
const ASKED_NOUNS: [NameKind, string[]][] = [
  [
    "person",
    [
      ...PERSON_NOUNS.split("|"),
      "person",
      "man",
      "woman",
      "boy",
      "girl",
      "leader",
      "founder",
      "husband",
      "wife",
      "son",
      "daughter",
      "father",
      "mother",
      "brother",
      "sister",
      "spouse",
      "character",
    ],
  ],
  ["work", WORK_NOUNS.split("|")],
  ["organisation", ORGANISATION_NOUNS.split("|")],
  ["place", PLACE_NOUNS.split("|")],
].map(([kind, nouns]) => [kind as NameKind, (nouns as string[]).map(stem)]);

/** The kind of name a question asks for: "who" a person, "where" a place, "what band" an organisation; null when it asks no kind of name. */
export function askedKind(query: QueryAnalysis): NameKind | null {
  if (query.expects === "person") return "person";
  if (query.expects === "place") return "place";
  if (query.expects !== "entity") return null;
  // The asked noun's head is its last word ("what science fantasy young adult series" -> series).
  const head = query.askedNoun[query.askedNoun.length - 1];
  if (!head) return null;
  return ASKED_NOUNS.find(([, nouns]) => nouns.includes(head))?.[0] ?? null;
}
