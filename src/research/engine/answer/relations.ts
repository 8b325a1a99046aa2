import type { HopRelation } from "../question";
import { nameAfter } from "./names";

/**
 * Who a relation leads to, as one sentence says it ("directed by Guido Brignone", "son of A and
 * B"): the cue words next to the name, never a name alone. Pure text.
 */

/** Cues that introduce the entity a relation leads to, in the sentence about the relation's source. */
const RELATION_CUES: Record<HopRelation, RegExp[]> = {
  director: [
    /\b(?:directed|helmed)(?:,?\s+(?:written|produced|co-written|edited|and|photographed)(?:\s+and)?)*\s+by\s+/gi,
    /\b(?:written|produced|co-written|co-produced)(?:,?\s+(?:and|produced|written))*\s+and\s+directed\s+by\s+/gi,
    /\bdirector\s+(?=\p{Lu})/gu,
    // "It marked the directorial debut of actor Alessandro Gassmann".
    /\bdirectorial\s+debut\s+(?:of|by)\s+/gi,
  ],
  composer: [
    /\b(?:music|score|soundtrack|songs)(?:\s+\w+){0,3}?\s+(?:was|were|is|are)\s+(?:composed|written|scored|created)\s+by\s+/gi,
    /\b(?:composed|scored)\s+by\s+/gi,
    /\b(?:music|score)\s+by\s+/gi,
    /\bcomposer\s+(?=\p{Lu})/gu,
  ],
  performer: [
    /\b(?:song|single|track|ballad|album|number|hit|tune)\b[^.;]{0,80}?(?<!\b(?:written|co-written|produced|composed|directed|lyrics|words|penned|arranged)\s)\b(?:by|recorded by|performed by|sung by|released by)\s+/gi,
    /\b(?:recorded|performed|sung)\s+by\s+/gi,
  ],
  producer: [/\bproduced\s+by\s+/gi, /\bproducer\s+(?=\p{Lu})/gu],
  writer: [/\b(?:written|penned|scripted)\s+by\s+/gi, /\bscreenplay\s+by\s+/gi],
  author: [
    /\b(?:written|authored)\s+by\s+/gi,
    /\b(?:novel|novella|book|story|memoir|poem|play|drama|tragedy|comedy|essay|biography|autobiography|trilogy)\s+by\s+/gi,
  ],
  screenwriter: [/\bscreenplay\s+(?:was\s+)?(?:written\s+)?by\s+/gi, /\bwritten\s+by\s+/gi],
  creator: [
    /\bcreated\s+by\s+/gi,
    /\bcreator\s+(?=\p{Lu})/gu,
    // "a public art work by artist Bernhard Heiliger": an art work's maker is its creator.
    /\b(?:work|artwork|sculpture|painting|statue|mural|installation|portrait|fresco|drawing|photograph)\s+by\s+/gi,
  ],
  founder: [/\b(?:founded|established|co-founded)\s+(?:in\s+\d{4}\s+)?by\s+/gi, /\bfounder\s+(?=\p{Lu})/gu],
  father: [
    /\b(?:son|daughter|child|eldest son|youngest son|eldest daughter|youngest daughter|only son|only daughter)\s+of\s+/gi,
    /\b(?:his|her)\s+father,?\s+/gi,
    /\bborn\s+to\s+/gi,
  ],
  mother: [/\b(?:his|her)\s+mother,?\s+/gi],
  spouse: [/\bmarried\s+(?:to\s+)?/gi, /\b(?:wife|husband|spouse|widow|widower|consort)\s+of\s+/gi, /\b(?:his|her)\s+(?:wife|husband|spouse),?\s+/gi],
  child: [
    /\b(?:his|her|their)\s+(?:son|daughter|child|children|eldest son|eldest daughter)(?:\s+(?:was|were|include|included|is))?,?\s+/gi,
    /\b(?:father|mother|parent)\s+of\s+/gi,
  ],
  sibling: [/\b(?:his|her)\s+(?:brother|sister|sibling)(?:\s+(?:was|is))?,?\s+/gi, /\b(?:brother|sister)\s+of\s+/gi],
};

/**
 * "was published by John Milton on 1 August 1643": a book published by a person is by that person,
 * when no other cue names its author. A publisher's name is not a person's ("Penguin Books",
 * "Chatto & Windus"), nor is a one-word name ("Gollancz").
 */
const PUBLISHED_BY = /\bpublished\s+(?:in\s+\d{4}\s+)?by\s+/gi;
const PUBLISHER_WORDS =
  /&|\b(?:Press|Books?|Publishing|Publishers?|Publications|House|Comics|Media|Verlag|Editions?|Company|Co|Inc|Ltd|Group|Magazine|Records|Entertainment|Studios?|University|Library|Society|Limited|Sons|Brothers|Bros)\b/;

/** "son of A and B": the mother is the second parent named (B), when the first is the father. */
const SECOND_PARENT = /\b(?:son|daughter|child)\s+of\s+(.+?)\s+and\s+(?:his\s+wife\s+|(?:the\s+)?(?:princess|queen|lady)\s+)?(.+)$/i;

/** The entities a sentence says the relation leads to, in the order it names them. */
export function relatedNames(sentence: string, relation: HopRelation): string[] {
  const found: string[] = [];
  for (const cue of RELATION_CUES[relation]) {
    cue.lastIndex = 0;
    for (const match of sentence.matchAll(cue)) {
      const name = nameAfter(sentence.slice((match.index ?? 0) + match[0].length));
      if (name) found.push(name);
    }
  }
  if (relation === "author" && found.length === 0) {
    PUBLISHED_BY.lastIndex = 0;
    for (const match of sentence.matchAll(PUBLISHED_BY)) {
      const name = nameAfter(sentence.slice((match.index ?? 0) + match[0].length));
      if (name && /\s/.test(name) && !PUBLISHER_WORDS.test(name)) found.push(name);
    }
  }
  if (relation === "mother") {
    const parents = SECOND_PARENT.exec(sentence);
    const second = parents?.[2] ? nameAfter(parents[2]) : null;
    if (second) found.push(second);
  }
  return [...new Set(found)];
}
