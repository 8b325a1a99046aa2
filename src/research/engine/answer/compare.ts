import type { RankedDoc } from "../evidence";
import { words } from "../language";

/**
 * Facts that yes/no comparisons turn on, read from a subject's page: the place a relation is
 * stated in ("born in Taganrog", "headquartered in Minato, Tokyo"), a measure ("5,895 m"), a
 * founding or birth year. Each returns the sentence it came from, so the answer can cite it.
 */
export interface Fact<T> {
  value: T;
  sentence: number;
}

/** A compass word before a place ("in southeastern Jiangsu province"): where in it, not part of its name. */
export const COMPASS = "(?:(?:north|south|east|west|central|north-?east|north-?west|south-?east|south-?west)(?:ern)?\\s+)?";

const PLACE_PHRASE = new RegExp(
  `\\bin\\s+${COMPASS}((?:the\\s+)?[\\p{Lu}][\\p{L}'’.-]*(?:\\s+(?:[\\p{Lu}][\\p{L}'’.-]*|of|de|upon|on))*(?:,\\s+[\\p{Lu}][\\p{L}'’.-]*(?:\\s+[\\p{Lu}][\\p{L}'’.-]*)*)*)`,
  "u",
);

/** The place stated with a relation word ("born", "headquartered", "formed"), as "Minato, Tokyo". */
export function placeOf(entry: RankedDoc, cues: string[]): Fact<string> | null {
  const sentences = entry.doc.sentences.slice(0, 12);
  for (const [index, sentence] of sentences.entries()) {
    for (const cue of cues) {
      const at = sentence.search(new RegExp(`\\b${cue}\\w*\\b`, "i"));
      if (at < 0) continue;
      const match = PLACE_PHRASE.exec(sentence.slice(at));
      if (match) return { value: match[1]!.replace(/^the\s+/i, ""), sentence: index };
    }
  }
  return null;
}

const UNIT = /(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(km|kilometres|kilometers|m|metres|meters|mi|miles|ft|feet)\b/i;
const TO_METRES: Record<string, number> = {
  km: 1000,
  kilometres: 1000,
  kilometers: 1000,
  m: 1,
  metres: 1,
  meters: 1,
  mi: 1609.34,
  miles: 1609.34,
  ft: 0.3048,
  feet: 0.3048,
};

/** A length or height in metres: the first measure with a unit on the page. */
export function measureOf(entry: RankedDoc): Fact<number> | null {
  for (const [index, sentence] of entry.doc.sentences.slice(0, 12).entries()) {
    const match = UNIT.exec(sentence);
    if (match) return { value: Number(match[1]!.replace(/,/g, "")) * TO_METRES[match[2]!.toLowerCase()]!, sentence: index };
  }
  return null;
}

/** A measure named in the question ("longer than 1,000 kilometres"), in metres. */
export function questionMeasure(question: string): number | null {
  const match = UNIT.exec(question);
  return match ? Number(match[1]!.replace(/,/g, "")) * TO_METRES[match[2]!.toLowerCase()]! : null;
}

/** The year a subject began: "founded in 1209", "(born 1821)", "(7 May 1833 – ...)". */
export function startYearOf(entry: RankedDoc): Fact<number> | null {
  for (const [index, sentence] of entry.doc.sentences.slice(0, 8).entries()) {
    const match =
      /\b(?:founded|established|formed|born|opened|built|incorporated|created|released)\b[^.;]*?\b(1\d{3}|20\d{2}|\d{3})\b/i.exec(sentence) ??
      /\((?:[^()]*?\b)?(1\d{3}|20\d{2})\b[^()]*\)/.exec(sentence);
    if (match) return { value: Number(match[1]), sentence: index };
  }
  return null;
}

/** Does a place phrase ("Minato, Tokyo") lie in the asked place ("Tokyo")? */
export function placeIncludes(phrase: string, wanted: string): boolean {
  const have = ` ${words(phrase).join(" ")} `;
  return have.includes(` ${words(wanted).join(" ")} `);
}

/** The most specific part of a place phrase ("Minato, Tokyo" -> "Minato"). */
export function firstPart(phrase: string): string {
  return phrase.split(",")[0]!.trim();
}
