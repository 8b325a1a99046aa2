import { type Attribution, pageAttribution, personAmong, type RankedDoc, type ScoredPassage, textNamesTitle, titleRefersTo } from "../../evidence";
import type { QueryAnalysis } from "../../question";
import { inRounds } from "../../language";
import { aboutTopic, type OpenEndedTopic } from "./topic";
import { quotableStatements } from "./quotable";

/** A page cited on an open-ended question: who speaks in it and when, and what of it can be quoted. */
export interface OpenEndedSource {
  entry: RankedDoc;
  attribution: Attribution;
  /** Its quotable statements, best first (never empty). */
  statements: ScoredPassage[];
  /** The compared subject it speaks for, on a comparison. */
  subject: string | null;
}

export interface OpenEndedSources {
  sources: OpenEndedSource[];
  /** The subjects whose views are asked for (compared ones, or the one named speaker), in the question's order. */
  subjects: string[];
  /** Asked subjects no page read speaks for. */
  missing: string[];
}

/** A page is cited only if it scores this share of the best page (of its subject, on a comparison): the relevance floor. */
export const MIN_RELATIVE_SCORE = 0.5;
/** A statement scores at least this share of the strongest one (stricter under the critic). */
const MIN_STATEMENT_SCORE = 0.2;
const MIN_STATEMENT_SCORE_CRITIC = 0.3;

export interface SourceLimits {
  /** The mode's number of sources: more pages read buy more cited, down to the relevance floor. */
  maxSources: number;
  critic: boolean;
  /** The relevance floor, when not MIN_RELATIVE_SCORE (a brief's coverage counts every page with a statement on the topic). */
  minRelativeScore?: number;
}

/**
 * The pages an open-ended question's brief cites. Every page above the relevance floor that has a
 * quotable statement, up to the mode's number: how many follows the evidence and the mode, not
 * a fixed count. Different speakers come before a second page of the same one (a synthesis
 * says who said what). When the question asks for named subjects, only pages by or about them
 * count, and each subject's pages compete among themselves, so a subject whose pages score lower
 * still gets its share.
 */
export function chooseOpenEndedSources(
  query: QueryAnalysis,
  ranked: RankedDoc[],
  topic: OpenEndedTopic,
  subjects: string[],
  limits: SourceLimits,
): OpenEndedSources {
  // Topics joined by "and" are first read together ("slavery and the war": sentences on both);
  // when nothing read says them together ("tariffs and the railroads"), each is enough.
  const together = sourcesOn(query, ranked, { ...topic, parts: undefined }, subjects, limits);
  return together.sources.length === 0 && topic.parts ? sourcesOn(query, ranked, topic, subjects, limits) : together;
}

function sourcesOn(query: QueryAnalysis, ranked: RankedDoc[], topic: OpenEndedTopic, subjects: string[], limits: SourceLimits): OpenEndedSources {
  const attributed = ranked.map((entry) => ({ entry, attribution: pageAttribution(entry.doc.title, entry.doc.published_at) }));
  const share = limits.critic ? MIN_STATEMENT_SCORE_CRITIC : MIN_STATEMENT_SCORE;
  const quotable = (pool: typeof attributed, subject: string | null): OpenEndedSource[] => {
    // The floor is set by the best page with a sentence on the topic: a page that ranks by a name
    // alone ("President McKinley was shot" for "the McKinley Tariff") does not push those under it.
    const onTopic = pool.filter(({ entry }) => entry.best.some((item) => aboutTopic(item.passage, topic)));
    const top = (onTopic[0] ?? pool[0])?.entry.score ?? 0;
    const above = pool.filter(({ entry }) => top > 0 && entry.score >= top * (limits.minRelativeScore ?? MIN_RELATIVE_SCORE));
    const strongest = Math.max(...above.map(({ entry }) => entry.best[0]?.score ?? 0), 1e-9);
    return above
      .map(({ entry, attribution }) => ({ entry, attribution, subject, statements: quotableStatements(entry, query, topic, strongest * share) }))
      .filter((source) => source.statements.length > 0);
  };
  if (subjects.length > 0) {
    const quota = Math.max(1, Math.floor(limits.maxSources / subjects.length));
    const speakers = attributed.flatMap(({ attribution }) => (attribution.speaker ? [attribution.speaker] : []));
    const per = subjects.map((subject) => {
      const isSubject = personAmong(subject, speakers);
      return bySpeaker(
        quotable(
          attributed.filter(({ entry, attribution }) => speaksFor(entry, attribution, subject, isSubject)),
          subject,
        ),
      ).slice(0, quota);
    });
    return { sources: per.flat(), subjects, missing: subjects.filter((_, index) => per[index]!.length === 0) };
  }
  return { sources: bySpeaker(quotable(attributed, null)).slice(0, limits.maxSources), subjects: [], missing: [] };
}

/** The page is the subject's own words (its speaker) or about the subject (its title names them: "Religious views of Albert Einstein"). */
function speaksFor(entry: RankedDoc, attribution: Attribution, subject: string, isSubject: (speaker: string) => boolean): boolean {
  if (attribution.speaker) return isSubject(attribution.speaker);
  return titleRefersTo(entry.doc.title, subject) || textNamesTitle(entry.doc.title, subject, { allowTypos: false });
}

/** Each speaker's best page first (in rank order), then each one's second, and so on. */
function bySpeaker(sources: OpenEndedSource[]): OpenEndedSource[] {
  return inRounds(sources, (source) => source.attribution.speaker ?? source.entry.doc.url);
}
