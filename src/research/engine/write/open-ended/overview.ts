import type { Passage } from "../../evidence";
import { type QueryAnalysis, questionTopic } from "../../question";
import { STOPWORDS, stem, words } from "../../language";
import type { BriefWriter, Clause } from "../brief-writer";
import type { OpenEndedSource, OpenEndedSources } from "./sources";
import { conciseStatement, quoted } from "./quotable";
import { withoutHeading } from "../../language";

/** The overview's first sentence and what it rests on: the short answer of an open-ended question. */
export interface Overview {
  text: string;
  passages: Passage[];
}

/** Speakers quoted in the overview's first sentence at most: past that it is no longer read. */
const MAX_CLAUSES = 4;
/** Sentences of an overview built from pages that name no speaker. */
const PLAIN_SENTENCES = 3;

const COUNTS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/**
 * The opening paragraph of an open-ended question's brief: a synthesis across the sources, not a pile
 * of quotes. Pages whose titles say who speaks and when give one sentence in order of time
 * ("Between 1848 and 1893, four presidents addressed tariffs in the sources read: James Polk
 * (1848) said "…" [2]; …; and by 1893 Grover Cleveland said "…" [1]."); a comparison states each side ("On X, A (1935) said "…"
 * [1]; B (1983) said "…" [2].") and names a side no source covers. Every quote is a sentence of
 * the cited page, trimmed only of a leading connective and its final stop; the words around the
 * quotes (who, when, how many) come from the page titles and the question's own topic, never a
 * span put into the question's words. Returns the first sentence, or null when nothing was quoted.
 */
export function writeOverview(writer: BriefWriter, query: QueryAnalysis, chosen: OpenEndedSources): Overview | null {
  const paragraph = writer.paragraph();
  const topic = questionTopic(query.question, chosen.subjects[chosen.subjects.length - 1]);
  const speakers = [...new Set(chosen.sources.map((source) => source.attribution.speaker).filter((speaker): speaker is string => speaker !== null))];
  let overview: Overview | null = null;
  if (chosen.subjects.length >= 2) {
    const sides = chosen.subjects
      .map((subject) => chosen.sources.find((source) => source.subject === subject))
      .filter((source): source is OpenEndedSource => source !== undefined);
    if (sides.length > 0)
      overview = clauses(
        paragraph,
        topic ? `On ${topic}, ` : "",
        sides.map((source) => clause(source, "said")),
      );
  } else if (speakers.length >= 2) {
    overview = severalSpeakers(paragraph, query, chosen.sources, speakers, topic);
  } else if (speakers.length === 1 && chosen.sources.every((source) => source.attribution.speaker === speakers[0])) {
    overview = oneSpeaker(paragraph, chosen.sources, speakers[0]!, topic);
  } else if (chosen.sources.length > 0) {
    overview = plainSentences(writer, paragraph, chosen.sources);
  }
  // A subject the question asks about and no page speaks for is said to be missing, never left out silently.
  for (const subject of chosen.missing) paragraph.addUncited(`No source read covers ${subject}'s view${topic ? ` on ${topic}` : ""}.`);
  if (chosen.sources.length === 0 && chosen.missing.length === 0) paragraph.addUncited("The sources read do not address this question.");
  return overview;
}

type Paragraph = ReturnType<BriefWriter["paragraph"]>;

function clauses(paragraph: Paragraph, lead: string, parts: Clause[]): Overview {
  return { text: paragraph.addClauses(lead, parts), passages: parts.flatMap((part) => part.passages) };
}

/** "James Polk (1848) said "…"", or the sentence itself when the page names no speaker. */
function clause(source: OpenEndedSource, verb: string, options: { year?: boolean } = {}): Clause {
  const item = conciseStatement(source.statements)!;
  const { speaker, year } = source.attribution;
  if (!speaker) return { text: asClause(withoutHeading(item.passage.text)), passages: [item.passage] };
  const when = options.year === false || year === null ? "" : ` (${year})`;
  return { text: `${speaker}${when} ${verb} "${quoted(item.passage.text)}"`, passages: [item.passage] };
}

/** A sentence as a clause of a longer one: its final stop dropped, and a capital that only opened it lowered ("The …" -> "the …", never "I" or a name). */
function asClause(text: string): string {
  const body = text.replace(/[.!;:]+(["”’)]*)$/, "$1").trim();
  const first = /^\p{L}+/u.exec(body)?.[0] ?? "";
  return STOPWORDS.has(first.toLowerCase()) && first !== "I" ? body.charAt(0).toLowerCase() + body.slice(1) : body;
}

/** Several speakers in order of time: who addressed the topic, when, and what each said. */
function severalSpeakers(paragraph: Paragraph, query: QueryAnalysis, sources: OpenEndedSource[], speakers: string[], topic: string | null): Overview {
  // Each speaker's best page (sources come best first), the first MAX_CLAUSES speakers; and when
  // that leaves out the earliest who spoke, them in place of the last: the sentence opens
  // "Between 1882 and 2021", and its clauses must reach back that far.
  const shown = speakers.slice(0, MAX_CLAUSES).map((speaker) => sources.find((source) => source.attribution.speaker === speaker)!);
  const earliest = sources
    .filter((source) => source.attribution.year !== null && !source.attribution.published)
    .reduce<OpenEndedSource | null>((first, source) => (!first || source.attribution.year! < first.attribution.year! ? source : first), null);
  if (earliest && shown.length === MAX_CLAUSES && !shown.some((source) => source.attribution.speaker === earliest.attribution.speaker))
    shown[MAX_CLAUSES - 1] = earliest;
  // When they spoke: a page dated only by its publication (a news story about them) does not say.
  const years = sources
    .filter((source) => !source.attribution.published)
    .map((source) => source.attribution.year)
    .filter((year): year is number => year !== null);
  const span =
    years.length === 0 ? "" : Math.min(...years) === Math.max(...years) ? `In ${years[0]}, ` : `Between ${Math.min(...years)} and ${Math.max(...years)}, `;
  const noun = speakerNoun(query);
  const lead = `${span}${COUNTS[speakers.length] ?? speakers.length} ${noun} addressed ${topic ?? "the question"} in the sources read${speakers.length > shown.length ? ", including" : ""}: `;
  const ordered = [...shown].sort((a, b) => (a.attribution.year ?? Infinity) - (b.attribution.year ?? Infinity));
  const parts = ordered.map((source, index) => {
    const last = index === ordered.length - 1;
    const year = source.attribution.year;
    // How it changed: the latest view is said as where things stood by then.
    if (last && ordered.length >= 3 && year !== null && year !== ordered[0]!.attribution.year) {
      const part = clause(source, "said", { year: false });
      return { ...part, text: `and by ${year} ${part.text}` };
    }
    return clause(source, "said");
  });
  return clauses(paragraph, span ? lead : lead.charAt(0).toUpperCase() + lead.slice(1), parts);
}

/** One speaker across pages: what they said, year by year. */
function oneSpeaker(paragraph: Paragraph, sources: OpenEndedSource[], speaker: string, topic: string | null): Overview {
  const ordered = [...sources].slice(0, MAX_CLAUSES).sort((a, b) => (a.attribution.year ?? Infinity) - (b.attribution.year ?? Infinity));
  if (ordered.length === 1) return clauses(paragraph, "", [clause(ordered[0]!, "said")]);
  const parts = ordered.map((source) => {
    const item = conciseStatement(source.statements)!;
    const year = source.attribution.year;
    return { text: `${year === null ? "" : `in ${year}, `}"${quoted(item.passage.text)}"`, passages: [item.passage] };
  });
  return clauses(paragraph, `${speaker} addressed ${topic ?? "the question"} in the sources read: `, parts);
}

/** A statement this similar to one already said says the same thing. */
const SAME_THING = 0.6;

/** Pages that name no speaker: their best statements as they stand, best page first. */
function plainSentences(writer: BriefWriter, paragraph: Paragraph, sources: OpenEndedSource[]): Overview {
  let first: Overview | null = null;
  for (const source of sources.slice(0, PLAIN_SENTENCES)) {
    const item = conciseStatement(source.statements)!;
    if (writer.saysAlready(item.passage, SAME_THING)) continue;
    const text = withoutHeading(item.passage.text);
    paragraph.add(text, [item.passage]);
    first ??= { text, passages: [item.passage] };
  }
  return first!;
}

/** The plural noun the question uses for its speakers ("presidents"), or "speakers". */
function speakerNoun(query: QueryAnalysis): string {
  const word = words(query.question).find((candidate) => query.speakerTerms.includes(stem(candidate)));
  if (!word) return "speakers";
  return word.endsWith("s") ? word : `${word}s`;
}
