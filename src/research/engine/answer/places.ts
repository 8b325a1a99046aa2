/**
 * The places a sentence names by kind: a county, a US state, a country. What contains a place is
 * read from its page's lead with these ("a city in DuPage County, Illinois, United States"), and
 * a country stands for a nationality or a comparison's "same country". Pure text.
 */
import { DEMONYM_COUNTRY, titleCase } from "../language";

/** A place a sentence names, and where it stands in it (characters). */
export interface PlaceInSentence {
  value: string;
  index: number;
}

/** A county (parish, borough) named in a sentence: "a city in DuPage County, Illinois". */
const COUNTY = /\b((?:[\p{Lu}][\p{L}'’.-]*\s+){1,3}(?:County|Parish|Borough))\b/u;

/** The states of the United States, which a place's lead names after its county. */
const US_STATES =
  "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming";
/** A state after a comma or "state of", never the capital's namesake ("Washington, D.C.") or a county's name ("Washington County"). */
const US_STATE = new RegExp(`(?:,\\s+|\\bstate of\\s+|\\bin\\s+)(${US_STATES})\\b(?!,?\\s*D\\.C\\.|\\s+(?:County|City|Street|Avenue|Territory)\\b)`, "u");

const US_STATE_NAMES = new Set(US_STATES.split("|"));

/** Is this name one of the United States ("Kansas")? */
export function isUsState(name: string): boolean {
  return US_STATE_NAMES.has(name.trim());
}

export function usStateIn(sentence: string): PlaceInSentence | null {
  const match = US_STATE.exec(sentence);
  return match ? { value: match[1]!, index: (match.index ?? 0) + match[0].indexOf(match[1]!) } : null;
}

/**
 * A state a sentence names as one, outside the United States too: "the Indian state of Kerala",
 * "Maharashtra state, India", "Lagos State". Not a name going on ("Ohio State University").
 */
const STATE_OF = /\bstate\s+of\s+(\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+){0,2})/u;
const NAME_STATE = /\b(\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+){0,2})\s+(state|State)\b(?!\s+\p{Lu})/u;

/** Words before "state" that do not name one ("the United States", "the Free State", "a Member State"). */
const NOT_A_STATE =
  /^(?:United|The|A|An|This|That|Its|Their|Free|Member|Islamic|Nation|Sovereign|Federal|Independent|Secretary|Head|Church|Papal|Police|Deep)\b/;

/** The state containing a place: a US state as its lead names one, else a state it names as such. */
export function stateIn(sentence: string): PlaceInSentence | null {
  const us = usStateIn(sentence);
  if (us) return us;
  const of = STATE_OF.exec(sentence);
  if (of) return { value: of[1]!, index: (of.index ?? 0) + of[0].indexOf(of[1]!) };
  const named = NAME_STATE.exec(sentence);
  const name = named?.[1];
  // "Indian state": a demonym says whose state, not which.
  if (!named || !name || NOT_A_STATE.test(name) || DEMONYM_COUNTRY[name.toLowerCase()] !== undefined) return null;
  // "Lagos State" is the state's name; "Maharashtra state" says what Maharashtra is.
  return { value: named[2] === "State" ? `${name} State` : name, index: named.index ?? 0 };
}

export function countyIn(sentence: string): PlaceInSentence | null {
  const match = COUNTY.exec(sentence);
  return match ? { value: match[1]!, index: match.index ?? 0 } : null;
}

/**
 * The forms pages write a country in, where the runtime's region name is not one ("Türkiye",
 * "Congo - Kinshasa", "Hong Kong SAR China"): "Ivory Coast" is in the text, "Côte d’Ivoire" rarely.
 */
const WRITTEN_FORMS: Record<string, string[]> = {
  Türkiye: ["Turkey"],
  Czechia: ["Czech Republic"],
  "Myanmar (Burma)": ["Myanmar", "Burma"],
  "Congo - Kinshasa": ["Democratic Republic of the Congo"],
  "Congo - Brazzaville": ["Republic of the Congo"],
  "Côte d’Ivoire": ["Ivory Coast", "Côte d'Ivoire"],
  "Hong Kong SAR China": ["Hong Kong"],
  "Macao SAR China": ["Macau", "Macao"],
  "Timor-Leste": ["East Timor"],
  "Palestinian Territories": ["Palestine"],
  Eswatini: ["Swaziland"],
  "Cocos (Keeling) Islands": ["Cocos Islands"],
};

/** A region name as English prose writes it: "and" for "&", "Saint" beside "St.". */
function writtenForms(name: string): string[] {
  const forms = [name, ...(WRITTEN_FORMS[name] ?? [])].map((form) => form.replace(/ & /g, " and "));
  return forms.flatMap((form) => (form.startsWith("St. ") ? [form, `Saint ${form.slice(4)}`] : [form]));
}

/** Countries by their English names (from the runtime's own region names, in the forms pages write them), for "located in the same country". */
export const COUNTRIES: string[] = (() => {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const out = new Set<string>();
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      try {
        const name = names.of(code);
        // The runtime's pseudo-locales ("Pseudo-Accents") are no country.
        if (name && name !== code && !/\b(?:Unknown|Region)\b|^Pseudo-/.test(name)) for (const form of writtenForms(name)) out.add(form);
      } catch {
        /* not a region code */
      }
    }
  }
  return [...out];
})();

/** Every country's name, lower case: the region names and the countries demonyms name. */
const COUNTRY_KEYS = new Set([...COUNTRIES, ...Object.values(DEMONYM_COUNTRY)].map((country) => country.toLowerCase()));

/** Does a span name a nationality: a demonym ("American", "Puerto Rican") or a country ("Austria")? */
export function namesNationality(text: string): boolean {
  const key = text.trim().toLowerCase();
  return DEMONYM_COUNTRY[key] !== undefined || COUNTRY_KEYS.has(key);
}

/** The country a demonym names ("Norwegian" -> "Norway"); any other value as it is. */
export function countryOf(value: string): string {
  const country = DEMONYM_COUNTRY[value.toLowerCase()];
  return country ? titleCase(country) : value;
}

/** The countries of the United Kingdom, which pages name instead of it ("a river in England"). */
const UK_NATIONS = /\b(England|Scotland|Wales|Northern Ireland)\b/;

/** Each country's name as a whole-word pattern, compiled once. */
const COUNTRY_PATTERNS: [string, RegExp][] = COUNTRIES.map((country) => [country, new RegExp(`\\b${country.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`)]);

/** A country named as a neighbour, not as what contains the place ("north of the border with Somalia", "bordering Kenya"). */
const NEIGHBOUR_BEFORE = /\b(?:border(?:s|ing)?(?: with)?|near|(?:north|south|east|west)(?:-?(?:east|west))? of|across from|neighbou?ring)\s+(?:the\s+)?$/i;

/** The last country a lead sentence names ("a village in Prokhorovsky District, Belgorod Oblast, Russia" -> Russia), not a neighbour. */
export function countryIn(sentence: string): PlaceInSentence | null {
  const named: (PlaceInSentence & { end: number })[] = [];
  const nation = UK_NATIONS.exec(sentence);
  if (nation) named.push({ value: "United Kingdom", index: nation.index, end: nation.index + nation[0].length });
  for (const [country, pattern] of COUNTRY_PATTERNS) {
    const at = sentence.search(pattern);
    if (at < 0 || NEIGHBOUR_BEFORE.test(sentence.slice(Math.max(0, at - 40), at))) continue;
    named.push({ value: country, index: at, end: at + country.length });
  }
  // A country inside a longer one's name is not named ("Congo" in "Democratic Republic of the
  // Congo", "Ireland" in "Northern Ireland").
  const whole = named.filter(
    (place) =>
      !named.some((other) => other !== place && other.index <= place.index && other.end >= place.end && other.end - other.index > place.end - place.index),
  );
  let found: PlaceInSentence | null = null;
  for (const place of whole) if (!found || place.index > found.index) found = { value: place.value, index: place.index };
  return found;
}
