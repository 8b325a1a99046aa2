/**
 * A compositional question read as a chain of hops: "Where was the director of film Lorna born?"
 * starts at the page it names (Lorna), follows one relation (its director) to another page, and
 * asks one attribute of that page's subject (where they were born). Resolving the chain hop by
 * hop is what lets the engine search for the page of the next hop, and state an answer only when
 * every hop was read in a sentence (the confidence of the short answer rests on it).
 *
 * Pure text: no evidence is needed to read the chain. A question of another shape has no chain
 * (null) and is answered by the general extraction.
 */

/** Relations that lead from one page's subject to another entity with a page of its own. */
const HOP_RELATIONS = [
  "director",
  "composer",
  "performer",
  "producer",
  "writer",
  "author",
  "screenwriter",
  "creator",
  "founder",
  "father",
  "mother",
  "spouse",
  "child",
  "sibling",
] as const;
export type HopRelation = (typeof HOP_RELATIONS)[number];
/**
 * A hop may also lead from a person to a place with a page of its own: "the city where X was
 * born" is read on X's page as a birthplace, then that place's page is read.
 */
export type PlaceRelation = "birth_place" | "death_place";
/**
 * A hop may lead from a thing to the place that contains it: "the country where the Bubye River
 * is found" is read in the river's page's lead ("a river in Zimbabwe"), then that place's page.
 */
export type LocationRelation = "in_country" | "in_state" | "in_county" | "in_place";
export type ChainRelation = HopRelation | PlaceRelation | LocationRelation;
export function isPlaceRelation(relation: ChainRelation): relation is PlaceRelation {
  return relation === "birth_place" || relation === "death_place";
}
export function isLocationRelation(relation: ChainRelation): relation is LocationRelation {
  return relation === "in_country" || relation === "in_state" || relation === "in_county" || relation === "in_place";
}

/** What is asked of the chain's last entity; `identity` asks for the entity itself ("Who is the father of X?"). */
export type HopAttribute =
  | "identity"
  | "birth_date"
  | "death_date"
  | "birth_place"
  | "death_place"
  | "burial_place"
  | "nationality"
  | "cause_of_death"
  | "award"
  | "employer"
  | "education"
  // The place that contains the chain's last entity, itself a place ("In what county is the city where X was born?").
  | "county"
  | "state"
  | "country";

/** Attributes asked of a place rather than of a person. */
export const CONTAINER_ATTRIBUTES: ReadonlySet<HopAttribute> = new Set(["county", "state", "country"]);

export interface HopChain {
  /** The entity the question names, where the chain starts (a film, a song, a person). */
  anchor: string;
  /** The relations followed from the anchor, in order. */
  relations: ChainRelation[];
  attribute: HopAttribute;
  /** How the question names what it asks, for the brief's opening ("the director of film Lorna"). */
  subjectPhrase: string;
}

/** Words a question uses for each relation (plural and gendered forms map to one relation). */
const RELATION_WORDS: Record<string, HopRelation[]> = {
  director: ["director"],
  "film director": ["director"],
  composer: ["composer"],
  performer: ["performer"],
  singer: ["performer"],
  producer: ["producer"],
  writer: ["writer"],
  author: ["author"],
  screenwriter: ["screenwriter"],
  creator: ["creator"],
  founder: ["founder"],
  father: ["father"],
  mother: ["mother"],
  husband: ["spouse"],
  wife: ["spouse"],
  spouse: ["spouse"],
  child: ["child"],
  son: ["child"],
  daughter: ["child"],
  sibling: ["sibling"],
  brother: ["sibling"],
  sister: ["sibling"],
  "paternal grandfather": ["father", "father"],
  "paternal grandmother": ["father", "mother"],
  "maternal grandfather": ["mother", "father"],
  "maternal grandmother": ["mother", "mother"],
  "father-in-law": ["spouse", "father"],
  "mother-in-law": ["spouse", "mother"],
};
/** "Big Eye's main director", "the original composer of X": the same relation. */
const RANK_WORDS = "(?:main|principal|original|lead|chief)";
const RELATION_ALTERNATION = Object.keys(RELATION_WORDS)
  .sort((a, b) => b.length - a.length)
  .join("|");

/** Kind words before a name ("the director of film X", "the performer of song Y"): not part of the name. */
const KIND_PREFIX =
  /^(?:the\s+)?(?:(?:both\s+)?(?:films?|movies?|songs?|singles?|albums?|bands?|novels?|books?|plays?|series|shows?|company|companies|magazines?|newspapers?|operas?|poems?))\s*:?\s+/i;

/** "the village of Clonbrook": the kind of place before its name (lower case only: "City of London" is a name). */
const PLACE_KIND_PREFIX = /^(?:the\s+)?(?:village|town|city|hamlet|commune|municipality|community|island)\s+of\s+/;

/** Attribute question shapes: the captured group is the subject phrase. Order matters: the more specific first. */
const ATTRIBUTE_SHAPES: [RegExp, HopAttribute][] = [
  [/^(?:what|which) (?:is|was) the (?:date of birth|birth ?date|birthday) of (.+)$/i, "birth_date"],
  [/^when (?:is|was) (.+?)(?:'s|’s| 's) birthday$/i, "birth_date"],
  [/^when (?:was|is) (.+?) born$/i, "birth_date"],
  [/^(?:what|which) (?:is|was) the (?:date of death|death ?date) of (.+)$/i, "death_date"],
  [/^when did (.+?) (?:die|pass away)$/i, "death_date"],
  [/^(?:what|which) (?:is|was) the (?:place of birth|birth ?place) of (.+)$/i, "birth_place"],
  [/^where (?:was|is) the (?:place of birth|birth ?place) of (.+)$/i, "birth_place"],
  [/^where (?:was|is) (.+?) born$/i, "birth_place"],
  [/^(?:in )?(?:which|what) (?:[\p{L}-]+ )?(?:city|town|village|country|state|place) (?:was|is) (.+?) born(?: in)?$/iu, "birth_place"],
  [/^(.+?) was born in (?:which|what) (?:city|town|village|country|state|place)$/i, "birth_place"],
  [/^(?:in )?(?:which|what) year (?:was|is) (.+?) born(?: in)?$/i, "birth_date"],
  [/^(?:in )?(?:which|what) (?:[\p{L}-]+ )?(?:city|town|village|country|state|place) did (.+?) die(?: in)?$/iu, "death_place"],
  [/^(?:in )?(?:which|what) year did (.+?) die(?: in)?$/i, "death_date"],
  [/^(?:what|which) (?:is|was) the (?:place of death|death ?place) of (.+)$/i, "death_place"],
  [/^where (?:was|is) the (?:place of death|death ?place) of (.+)$/i, "death_place"],
  [/^where did (.+?) (?:die|pass away)$/i, "death_place"],
  [/^(?:what|which) (?:is|was) the (?:place of burial|burial ?place) of (.+)$/i, "burial_place"],
  [/^where (?:is|was) (.+?) buried$/i, "burial_place"],
  [/^what (?:is|was) the nationality of (.+)$/i, "nationality"],
  [/^what nationality (?:is|was|are|were) (.+)$/i, "nationality"],
  [/^(?:which|what) country (?:is|was) (.+?) from$/i, "nationality"],
  [/^(?:which|what) country (.+?) (?:is|was) from$/i, "nationality"],
  [/^(?:which|what) country (?:is|was) (.+?) a citizen of$/i, "nationality"],
  [/^what (?:is|was) the cause of death of (.+)$/i, "cause_of_death"],
  [/^why did (.+?) die$/i, "cause_of_death"],
  [/^(?:which|what) award (?:did|does) (.+?) (?:receive|win|get)$/i, "award"],
  [/^(?:which|what) award (.+?) (?:received|won|got|get|win|receive)$/i, "award"],
  [/^where (?:does|did) (.+?) work(?: at)?$/i, "employer"],
  [/^where did (.+?) (?:study|graduate(?: from)?|get (?:his|her|their) education)$/i, "education"],
  [/^(?:which|what) (?:university|college|school) did (.+?) (?:attend|study at|graduate from)$/i, "education"],
  [/^who (?:is|was|are|were) (.+)$/i, "identity"],
  ...containerShapes("county"),
  ...containerShapes("state"),
  ...containerShapes("country"),
];

/** "In what county is S (located)?", "What county contains S?", "S is in which county?", "What county is S the seat of?" */
function containerShapes(kind: "county" | "state" | "country"): [RegExp, HopAttribute][] {
  return [
    ...(kind === "county" ? [[/^(?:what|which) county is (.+?) the (?:county )?seat of$/i, kind] as [RegExp, HopAttribute]] : []),
    [new RegExp(`^(?:in )?(?:what|which) ${kind} (?:is|was) (.+?)(?: (?:located|situated|found))?(?: in)?$`, "i"), kind],
    [new RegExp(`^(?:what|which) ${kind} (?:contains|includes) (.+)$`, "i"), kind],
    [new RegExp(`^(.+?) is (?:located |situated )?in (?:what|which) ${kind}$`, "i"), kind],
  ];
}

/** "the city where X was born", "X's birthplace", "the place of death of X": the wrapper and the person inside. */
const PLACE_WRAPPERS: [RegExp, PlaceRelation][] = [
  [/^(?:the\s+)?(?:city|town|village|place|municipality|community)\s+(?:where|in which)\s+(.+?)\s+was born$/i, "birth_place"],
  [/^(?:the\s+)?(?:city|town|village|place|municipality|community)\s+(?:where|in which)\s+(.+?)\s+died$/i, "death_place"],
  [/^(?:the\s+)?(?:city|town|village|place)\s+(?:that\s+)?(.+?)\s+was born in$/i, "birth_place"],
  [/^(?:the\s+)?(?:city|town|village|place)\s+(?:that\s+)?(.+?)\s+died in$/i, "death_place"],
  [/^(?:the\s+)?(?:birthplace|birth place|place of birth|city of birth|town of birth|hometown)\s+of\s+(.+)$/i, "birth_place"],
  [/^(?:the\s+)?(?:place of death|city of death|town of death)\s+of\s+(.+)$/i, "death_place"],
  [/^(.+?)\s?(?:'s|’s|')\s+(?:birthplace|birth place|place of birth|city of birth|town of birth|hometown)$/i, "birth_place"],
  [/^(.+?)\s?(?:'s|’s|')\s+(?:place of death|city of death|town of death)$/i, "death_place"],
];

function readPlaceWrapper(text: string): { relation: PlaceRelation; inner: string } | null {
  for (const [shape, relation] of PLACE_WRAPPERS) {
    const match = shape.exec(text);
    if (match) return { relation, inner: match[1]! };
  }
  return null;
}

/** The kind of place a question names, as the relation that reaches it. */
const LOCATION_KINDS: Record<string, LocationRelation> = {
  country: "in_country",
  nation: "in_country",
  state: "in_state",
  county: "in_county",
  city: "in_place",
  town: "in_place",
  village: "in_place",
  area: "in_place",
  region: "in_place",
  province: "in_place",
  location: "in_place",
};
const LOCATION_KIND = Object.keys(LOCATION_KINDS).join("|");
const LOCATED = "(?:is|was|are|were)\\s+(?:located|found|situated|based|headquartered|set|formed|founded|licensed\\s+to(?:\\s+(?:broadcast|serve))?)";

/** "the country where X is located", "the state X is in", "X's country": the kind of place and the thing inside it. */
const LOCATION_WRAPPERS: RegExp[] = [
  new RegExp(`^(?:the\\s+)?(${LOCATION_KIND})\\s+(?:where|in which)\\s+(.+?)\\s+${LOCATED}(?:\\s+in)?$`, "i"),
  new RegExp(`^(?:the\\s+)?(${LOCATION_KIND})\\s+(?:where|in which)\\s+(.+?)\\s+(?:is|was|are|were)(?:\\s+a\\s+citizen)?$`, "i"),
  new RegExp(`^(?:the\\s+)?(${LOCATION_KIND})\\s+(?:that\\s+)?(.+?)\\s+(?:${LOCATED}\\s+in|(?:is|was|are|were)\\s+(?:in|from|(?:a\\s+)?part\\s+of))$`, "i"),
  // "the country containing Nugegoda", "the country that produced Fist Power" (a film's country is its lead's: "a 2000 Hong Kong action film").
  new RegExp(`^(?:the\\s+)?(${LOCATION_KIND})\\s+(?:(?:that|which)\\s+)?(?:contains|containing|includes|including|produced|has|having|with)\\s+(.+)$`, "i"),
  // "the location where the Siege of Cassel took place": where an event's lead puts it.
  new RegExp(
    `^(?:the\\s+)?(${LOCATION_KIND})\\s+(?:where|in which)\\s+(.+?)\\s+(?:took\\s+place|happened|occurred|(?:was|were)\\s+(?:held|fought|signed))$`,
    "i",
  ),
  new RegExp(`^(.+?)\\s?(?:'s|’s|')\\s+(${LOCATION_KIND})$`, "i"),
];

/** "the state where Henry Worrall died": the place of a life, then the container asked of it. */
const LIFE_IN_CONTAINER = /^(?:the\s+)?(country|nation|state|county)\s+(?:where|in which)\s+(.+?)\s+(was born|died)$/i;

function readLifeInContainer(text: string): { relations: [LocationRelation, PlaceRelation]; inner: string } | null {
  const match = LIFE_IN_CONTAINER.exec(text);
  if (!match) return null;
  return { relations: [LOCATION_KINDS[match[1]!.toLowerCase()]!, match[3]!.toLowerCase() === "died" ? "death_place" : "birth_place"], inner: match[2]! };
}

function readLocation(text: string): { relation: LocationRelation; inner: string } | null {
  for (const [index, shape] of LOCATION_WRAPPERS.entries()) {
    const match = shape.exec(text);
    if (!match) continue;
    // The possessive form names the thing first ("Damerjog's country").
    const [kind, inner] = index === LOCATION_WRAPPERS.length - 1 ? [match[2]!, match[1]!] : [match[1]!, match[2]!];
    return { relation: LOCATION_KINDS[kind.toLowerCase()]!, inner };
  }
  return null;
}

/**
 * The subject phrase read as relations applied to an anchor, innermost first in the returned
 * list: "the child of the director of film X" -> anchor X, relations [director, child];
 * "X's paternal grandfather" -> anchor X, [father, father].
 */
export function readSubject(phrase: string): { anchor: string; relations: ChainRelation[] } | null {
  let text = phrase.trim().replace(/\s+/g, " ");
  const outer: ChainRelation[] = [];
  for (let guard = 0; guard < 4; guard++) {
    const place = readPlaceWrapper(text);
    if (place) {
      outer.push(place.relation);
      text = place.inner;
      continue;
    }
    const life = readLifeInContainer(text);
    if (life) {
      outer.push(...life.relations);
      text = life.inner;
      continue;
    }
    const location = readLocation(text);
    if (location) {
      outer.push(location.relation);
      text = location.inner;
      continue;
    }
    const prefix = new RegExp(`^(?:the\\s+)?(?:${RANK_WORDS}\\s+)?(${RELATION_ALTERNATION})s?\\s+of\\s+(.+)$`, "i").exec(text);
    // A capitalised relation word inside a description opens a title ("the performer of The Creator
    // of the Universe"), as one after a capitalised "The" does; only a question's own may be capitalised.
    const titled = prefix && /^\p{Lu}/u.test(prefix[1]!) && (outer.length > 0 || /^The\s/.test(text));
    if (prefix && !titled) {
      outer.push(...[...RELATION_WORDS[prefix[1]!.toLowerCase()]!].reverse());
      text = prefix[2]!;
      continue;
    }
    // "X's father", "Olav Magnusson Of Norway 's father".
    const possessive = new RegExp(`^(.+?)\\s?(?:'s|’s|')\\s+(?:${RANK_WORDS}\\s+)?(${RELATION_ALTERNATION})$`, "i").exec(text);
    if (possessive) {
      outer.push(...[...RELATION_WORDS[possessive[2]!.toLowerCase()]!].reverse());
      text = possessive[1]!;
      continue;
    }
    break;
  }
  if (outer.length === 0) return null;
  const anchor = text
    .replace(KIND_PREFIX, "")
    .replace(PLACE_KIND_PREFIX, "")
    .replace(/^the\s+/, "")
    .trim();
  // The anchor must be a name: a capital or a digit opens it ("film 1917", "Lorna").
  if (!/^[\p{Lu}\p{N}"“'‘]/u.test(anchor)) return null;
  return { anchor, relations: outer.reverse() };
}

/** The hop chain of a compositional question, or null when the question has another shape. */
export function readHopChain(question: string): HopChain | null {
  const q = question
    .trim()
    .replace(/\s*\?+\s*$/, "")
    .replace(/\s+/g, " ");
  for (const [shape, attribute] of ATTRIBUTE_SHAPES) {
    const match = shape.exec(q);
    if (!match) continue;
    const subjectPhrase = match[1]!.trim();
    // A place asked for its container may be named outright ("In what county is Wheaton, Illinois?").
    const subject =
      readSubject(subjectPhrase) ??
      (CONTAINER_ATTRIBUTES.has(attribute) && /^[\p{Lu}\p{N}]/u.test(subjectPhrase) ? { anchor: subjectPhrase, relations: [] } : null);
    if (!subject) continue;
    return { ...subject, attribute, subjectPhrase: subjectPhrase.replace(/^the\s+/i, "the ") };
  }
  return null;
}
