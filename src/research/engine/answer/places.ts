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

export function usStateIn(sentence: string): PlaceInSentence | null {
  const match = US_STATE.exec(sentence);
  return match ? { value: match[1]!, index: (match.index ?? 0) + match[0].indexOf(match[1]!) } : null;
}

export function countyIn(sentence: string): PlaceInSentence | null {
  const match = COUNTY.exec(sentence);
  return match ? { value: match[1]!, index: match.index ?? 0 } : null;
}

/** Countries by their English names (from the runtime's own region names), for "located in the same country". */
export const COUNTRIES: string[] = (() => {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const out: string[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      try {
        const name = names.of(code);
        if (name && name !== code && !/\b(?:Unknown|Region)\b/.test(name)) out.push(name);
      } catch {
        /* not a region code */
      }
    }
  }
  return out;
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
  let found: PlaceInSentence | null = null;
  const nation = UK_NATIONS.exec(sentence);
  if (nation) found = { value: "United Kingdom", index: nation.index };
  for (const [country, pattern] of COUNTRY_PATTERNS) {
    const at = sentence.search(pattern);
    if (at < 0 || NEIGHBOUR_BEFORE.test(sentence.slice(Math.max(0, at - 40), at))) continue;
    if (!found || at > found.index) found = { value: country, index: at };
  }
  return found;
}
