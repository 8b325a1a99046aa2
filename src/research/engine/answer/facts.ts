import type { HopAttribute } from "../question";
import { NOT_NAMES } from "../question";
import { MONTHS } from "../language";
import { NAME, trimName } from "./names";
import { COUNTRIES, countryIn, countyIn, stateIn, usStateIn } from "./places";

/**
 * Facts stated in one sentence: an attribute of a page's subject ("born 13 January 1956 in Cleveland"). Each pattern needs the
 * words that state the fact next to the value: a value found this way is what the sentence says,
 * which is what a `high` answer must rest on. Pure text functions, one sentence at a time.
 */

const DATE = `(?:(?:${MONTHS})\\s+\\d{1,2},?\\s+\\d{3,4}|\\d{1,2}\\s+(?:${MONTHS})\\s+\\d{3,4}|(?:${MONTHS})\\s+\\d{3,4}|\\d{3,4})`;
const PLACE = `(?:the\\s+)?${NAME}`;
/** A day, month and year ("24 July 1957", "May 2, 1989"). */
const FULL_DATE = `(?:(?:${MONTHS})\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\s+(?:${MONTHS})\\s+\\d{4})`;
/**
 * "(born 13 January 1956 in Cleveland, Ohio)", "(June 7, 1909 in Jiménez – September 4, 1986 in
 * Mexico City)"; and, as 2WikiMultihopQA's pages write a life whose dash was lost, "( 21 February
 * 188524 July 1957)", "( October 7, 1894 May 2, 1989)": two full dates, the second closing the
 * brackets (group 5). A birth name may stand between "born" and the date ("( born Bertha Lulu
 * Williams, December 10, 1923 – May 26, 1998)").
 */
const LIFESPAN = new RegExp(
  `\\(\\s*(?:[^()]*?;\\s*)?(?:born\\s+(?:\\p{Lu}[^()\\d,;]*,\\s*)?)?(${DATE})(?:,?\\s+(?:in|at)\\s+(${PLACE}))?(?:[^()–-]*?[–-]\\s*(?:died\\s+)?(${DATE})(?:,?\\s+(?:in|at)\\s+(${PLACE}))?|\\s*(${FULL_DATE})\\s*\\))?`,
  "u",
);

/** "(Rome, 30 May 1904 – Rome, 22 October 1995)": each place before its date. */
const LIFE_PLACE_FIRST = new RegExp(`\\(\\s*(${PLACE}),\\s*(${DATE})\\s*[–-]\\s*(${PLACE}),\\s*(${DATE})\\s*\\)`, "u");
/** "(March 19, 1894, San Diego – August 25, 1975, Santa Monica, California)": each date, then its place. */
const LIFE_PLACE_AFTER = new RegExp(`\\(\\s*(?:[^()–-]*?[,;]\\s*)?(${DATE}),\\s*(${PLACE})[^()–-]*?[–-]\\s*(${DATE}),\\s*(${PLACE})`, "u");

export interface StatedValue {
  value: string;
  /** Where in the sentence the value stands (characters). */
  index: number;
}

function first(sentence: string, patterns: RegExp[], group = 1): StatedValue | null {
  for (const pattern of patterns) {
    const match = pattern.exec(sentence);
    if (match?.[group]) return { value: cleanValue(match[group]!), index: (match.index ?? 0) + match[0].indexOf(match[group]!) };
  }
  return null;
}

/** A value without its article and trailing punctuation; a sentence's full stop goes, an initial's stays. */
function cleanValue(value: string): string {
  return trimName(
    value
      .replace(/^the\s+/i, "")
      .replace(/[,;:]+$/, "")
      .trim(),
  );
}

const BORN = new RegExp(`\\b[Bb]orn\\s+(?:on\\s+|in\\s+(?=\\d))?(${DATE})`, "u");
const DIED = new RegExp(`\\b(?:[Dd]ied|[Pp]assed away)\\s+(?:on\\s+|in\\s+(?=\\d))?(${DATE})`, "u");
const BORN_PLACE = new RegExp(`\\b[Bb]orn\\b(?:[^.;()]{0,60}?)\\s*\\b(?:in|at)\\s+(${PLACE})`, "u");
const DIED_PLACE = new RegExp(`\\b(?:[Dd]ied|[Pp]assed away)\\b(?:[^.;()]{0,60}?)\\s+(?:in|at)\\s+(${PLACE})`, "u");
/** "(born February 15, 1926, Chelsea, Massachusetts)": the place after the date, with no "in". */
const BORN_DATE_PLACE = new RegExp(`\\(\\s*born\\s+(?:on\\s+)?${DATE},\\s+(${PLACE})`, "u");
const NATIVE_OF = new RegExp(`\\b(?:a|was a|is a)\\s+native\\s+of\\s+(${PLACE})`, "u");
const BURIED = new RegExp(`\\b(?:buried|interred|laid to rest|entombed)\\s+(?:in|at)\\s+(${PLACE})`, "u");
const CAUSE = /\b(?:died|death)\s+(?:of|from|due to|after|following)\s+(?:an?\s+|complications\s+(?:of|from)\s+)?((?:[a-z'’-]+\s+){0,4}[a-z'’-]+)/;
/** "died in Los Angeles on 1 May 1950 of a heart attack": a cause further along the sentence, when it names an illness or a manner of death. */
const CAUSE_LATER =
  /\b(?:died|death)\b[^.;]{0,60}?\b(?:of|from|after|following)\s+(?:an?\s+|complications\s+(?:of|from)\s+)?((?:[a-z'’-]+\s+){0,3}(?:attack|cancer|failure|disease|pneumonia|tuberculosis|stroke|suicide|leukemia|leukaemia|cirrhosis|illness|infection|dysentery|influenza|fever|overdose|haemorrhage|hemorrhage|aneurysm|tumou?r|emphysema|diabetes|malaria|cholera|typhoid|smallpox|plague|accident|crash|wounds?|injuries|poisoning|drowning|asphyxia|embolism|thrombosis|sepsis|septicemia|syphilis|dementia|alzheimer's|parkinson's))\b/;
const CAUSE_STATED = /\b(?:cause of (?:his |her )?death was|succumbed to|death was caused by)\s+(?:an?\s+)?((?:[a-z'’-]+\s+){0,4}[a-z'’-]+)/;
const AWARD = new RegExp(
  `\\b(?:won|received|awarded|earned|recipient of|inducted into)\\s+(?:the\\s+|a\\s+|an\\s+|two\\s+|three\\s+|several\\s+)?(${NAME}(?:\\s+(?:Award|Awards|Prize|Medal|Order|Cross|Fame))?)`,
  "u",
);
const EMPLOYER = new RegExp(
  `\\b(?:worked|works|working|employed|professor|lecturer|researcher|taught|teaches|served)\\s+(?:\\w+\\s+){0,2}(?:at|for)\\s+(?:the\\s+)?(${NAME})`,
  "u",
);
const EDUCATION = new RegExp(
  `\\b(?:educated|studied|graduated|attended|alumnus|alumna|enrolled)\\s+(?:\\w+\\s+){0,3}?(?:at|from|of|in)?\\s*(?:the\\s+)?(${NAME})`,
  "u",
);
/** "is an American film director", "was a British composer": the demonym of the lead sentence. */
const NATIONALITY = /\b(?:is|was|are|were)\s+(?:an?|the)\s+(?:\d{4}\s+)?((?:[\p{Lu}][\p{L}-]+)(?:[-\s][\p{Lu}][\p{L}-]+)?)\b/u;

/** Place attributes: their value is a place, which a sentence may write with what contains it. */
export const PLACE_ATTRIBUTES: ReadonlySet<HopAttribute> = new Set(["birth_place", "death_place", "burial_place"]);

/** ", Queens" after a place, ending where the place would (punctuation, or a word that goes on the sentence): "Born in Terme, Bazzoni started" names a person. */
const CONTAINING_PLACE = new RegExp(`^,\\s+(${NAME})(?=\\s*(?:[,.;:()]|$)|\\s+(?:to|on|in|and|where|during|into|at|as|after|before|near)\\b)`, "u");
const NOT_A_PLACE = new RegExp(`^(?:${MONTHS}|Jr\\.?|Sr\\.?)\\b`, "u");

/**
 * A place as the sentence writes it, with the places that contain it: "Westminster, London" for
 * "born in Westminster, London", "Flushing, Queens" (at most two more). A neighbourhood alone
 * ("Rosedale" for a birthplace in Indiana) says less than the sentence did, and whoever asks in
 * which city must not be left to guess.
 */
export function placeAsWritten(sentence: string, place: string, index?: number): string {
  // Where the span stands, when known: a place named twice ("The Philadelphia Eagles … based in Philadelphia, Pennsylvania") is read where it was found.
  const at = index !== undefined && sentence.startsWith(place, index) ? index : sentence.indexOf(place);
  if (at < 0) return place;
  let rest = sentence.slice(at + place.length);
  const parts = [place];
  while (parts.length < 3) {
    const next = CONTAINING_PLACE.exec(rest);
    if (!next || NOT_A_PLACE.test(next[1]!)) break;
    parts.push(cleanValue(next[1]!));
    rest = rest.slice(next[0].length);
  }
  return parts.join(", ");
}

/**
 * The attribute a sentence states of its page's subject, with the value's position. Life dates in
 * brackets after a name count as stating birth and death ("Robert Rossen (March 16, 1908 – ...)").
 */
export function statedAttribute(sentence: string, attribute: HopAttribute): StatedValue | null {
  const lifespan = LIFESPAN.exec(sentence);
  const fromLife = (group: number): StatedValue | null =>
    lifespan?.[group] ? { value: cleanValue(lifespan[group]!), index: (lifespan.index ?? 0) + lifespan[0].indexOf(lifespan[group]!) } : null;
  // Lives written with their places beside the dates, in either order.
  const placeFirst = LIFE_PLACE_FIRST.exec(sentence);
  const placeAfter = placeFirst ? null : LIFE_PLACE_AFTER.exec(sentence);
  const life = placeFirst ?? placeAfter;
  const fromPlaces = (kind: "birth_place" | "birth_date" | "death_place" | "death_date"): StatedValue | null => {
    if (!life) return null;
    const order = placeFirst
      ? { birth_place: 1, birth_date: 2, death_place: 3, death_date: 4 }
      : { birth_date: 1, birth_place: 2, death_date: 3, death_place: 4 };
    const value = life[order[kind]]!;
    return { value: cleanValue(value), index: (life.index ?? 0) + life[0].indexOf(value) };
  };
  switch (attribute) {
    case "birth_date":
      // A lone year in brackets is a film's or a work's date, not a life: it needs "born" or a death date.
      return (
        fromPlaces("birth_date") ??
        (lifespan && (/\(\s*(?:[^()]*;\s*)?born/.test(lifespan[0]) || lifespan[3] || lifespan[5]) ? fromLife(1) : null) ??
        first(sentence, [BORN])
      );
    case "death_date":
      return fromPlaces("death_date") ?? fromLife(3) ?? fromLife(5) ?? first(sentence, [DIED]);
    case "birth_place":
      return fromPlaces("birth_place") ?? fromLife(2) ?? first(sentence, [BORN_PLACE, BORN_DATE_PLACE, NATIVE_OF]);
    case "death_place":
      return fromPlaces("death_place") ?? fromLife(4) ?? first(sentence, [DIED_PLACE]);
    case "burial_place":
      return first(sentence, [BURIED]);
    case "cause_of_death":
      return first(sentence, [CAUSE_STATED, CAUSE, CAUSE_LATER]);
    case "award":
      return first(sentence, [AWARD]);
    case "employer":
      return first(sentence, [EMPLOYER]);
    case "education":
      return first(sentence, [EDUCATION]);
    case "nationality": {
      const match = NATIONALITY.exec(sentence);
      if (!match) {
        for (const from of sentence.matchAll(FROM_COUNTRY))
          if (COUNTRIES.includes(from[1]!)) return { value: from[1]!, index: (from.index ?? 0) + from[0].indexOf(from[1]!) };
        return null;
      }
      // "Puerto Rican", "Sri Lankan": a two-word demonym; else the first word ("Indian-Punjabi").
      const whole = match[1]!;
      const demonym =
        / /.test(whole) && EXTRA_DEMONYM.test(whole.split(" ")[1]!) && !NOT_NAMES.has(whole.split(" ")[0]!.toLowerCase()) ? whole : whole.split(/[-\s]/)[0]!;
      if (!NOT_NAMES.has(demonym.toLowerCase()) && !EXTRA_DEMONYM.test(demonym.split(" ").pop()!)) return null;
      return { value: demonym, index: (match.index ?? 0) + match[0].indexOf(demonym) };
    }
    case "county":
      return countyIn(sentence);
    case "state":
      return stateIn(sentence);
    case "country": {
      const country = countryIn(sentence);
      if (country) return country;
      // A place in a US state whose sentence does not name the country ("a city in DuPage County, Illinois").
      const state = usStateIn(sentence);
      return state ? { value: "United States", index: state.index } : null;
    }
    default:
      return null;
  }
}

/** "an afro-pop singer-songwriter from Mali": a country named as where the subject is from. */
const FROM_COUNTRY = /\b(?:from|of)\s+(?:the\s+)?([\p{Lu}][\p{L}]+(?:\s+[\p{Lu}][\p{L}]+)*)/gu;

/** Demonyms beyond the common ones the question reader knows ("Swedish" is there; "Malian", "Bengali" may not be). */
const EXTRA_DEMONYM = /^(?:[\p{Lu}][\p{L}]+(?:ian|ean|ese|ish|ic|i|an|ch))$/u;
