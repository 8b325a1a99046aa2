import { similarity } from "../../evidence";
import type { ScoredPassage } from "../../evidence";
import type { BriefWriter } from "../brief-writer";
import type { OpenEndedSource, OpenEndedSources } from "./sources";
import { leansOnContext } from "./quotable";
import { withoutHeading } from "../../language";

/** A finding this similar to one already said says the same thing. */
const SAME_THING = 0.6;
/** Findings in the whole brief, about: spread over the sources, at least one and at most two each. */
const FINDINGS = 10;
/** From this many speakers on, findings are grouped by period rather than by speaker. */
const SPEAKERS_FOR_PERIODS = 4;
/** Periods at most: a decade each when the years allow it, else wider spans. */
const MAX_PERIODS = 4;

interface Group {
  heading: string | null;
  sources: OpenEndedSource[];
  /** Said before each finding: who and when, when the heading does not say it. */
  label: (source: OpenEndedSource) => string | undefined;
}

/**
 * The findings of an open-ended question, grouped by what they are about rather than one heading per
 * page: by compared subject on a comparison, by period when many speakers spoke over the years,
 * by speaker when a few did, by page otherwise. Within a group, in order of time; each finding a
 * quotable statement (a full sentence with a verb) not said already.
 */
export function writeOpenEndedFindings(writer: BriefWriter, chosen: OpenEndedSources): void {
  const perSource = Math.min(2, Math.max(1, Math.floor(FINDINGS / Math.max(1, chosen.sources.length))));
  for (const group of groupSources(chosen)) {
    const lines: { source: OpenEndedSource; item: ScoredPassage }[] = [];
    for (const source of chronological(group.sources)) {
      const picked: ScoredPassage[] = [];
      // Sentences that stand on their own first: "This was a convenient adjunct …" says little out of its page.
      const ordered = [
        ...source.statements.filter((item) => !leansOnContext(item.passage.text)),
        ...source.statements.filter((item) => leansOnContext(item.passage.text)),
      ];
      for (const item of ordered) {
        if (picked.length >= perSource) break;
        if (writer.has(item.passage) || writer.saysAlready(item.passage, SAME_THING)) continue;
        if (picked.some((other) => similarity(item.passage.terms, other.passage.terms) > SAME_THING)) continue;
        picked.push(item);
      }
      for (const item of picked.sort((a, b) => a.passage.position - b.passage.position)) lines.push({ source, item });
    }
    if (lines.length === 0) continue;
    const block = writer.group(group.heading);
    for (const { source, item } of lines) block.add(withoutHeading(item.passage.text), [item.passage], group.label(source));
  }
}

function chronological(sources: OpenEndedSource[]): OpenEndedSource[] {
  return [...sources].sort((a, b) => (a.attribution.year ?? Infinity) - (b.attribution.year ?? Infinity));
}

function groupSources(chosen: OpenEndedSources): Group[] {
  const { sources, subjects } = chosen;
  const speakers = new Set(sources.map((source) => source.attribution.speaker).filter((speaker) => speaker !== null));
  if (subjects.length >= 2) {
    return subjects
      .map((subject) => sources.filter((source) => source.subject === subject))
      .filter((own) => own.length > 0)
      .map((own) => personGroup(own[0]!.attribution.speaker ?? own[0]!.subject!, own));
  }
  if (speakers.size >= SPEAKERS_FOR_PERIODS && sources.every((source) => source.attribution.year !== null)) {
    const periods = periodGroups(sources);
    if (periods.length >= 2) return periods;
  }
  // Several speakers, or one across several pages: each speaker's findings under their name.
  if (speakers.size >= 2 || (speakers.size === 1 && sources.every((source) => source.attribution.speaker !== null))) {
    const bySpeaker = new Map<string, OpenEndedSource[]>();
    for (const source of chronological(sources)) {
      const key = source.attribution.speaker ?? source.entry.doc.title;
      bySpeaker.set(key, [...(bySpeaker.get(key) ?? []), source]);
    }
    return [...bySpeaker.entries()].map(([name, own]) =>
      own[0]!.attribution.speaker ? personGroup(name, own) : { heading: name, sources: own, label: () => undefined },
    );
  }
  return sources.map((source) => ({ heading: source.entry.doc.title, sources: [source], label: () => undefined }));
}

/** A person's findings under their name and years ("Grover Cleveland (1887, 1893)"), each labelled with its year when there are several. */
function personGroup(name: string, sources: OpenEndedSource[]): Group {
  const years = [
    ...new Set(
      chronological(sources)
        .map((source) => source.attribution.year)
        .filter((year) => year !== null),
    ),
  ];
  return {
    heading: years.length > 0 ? `${name} (${years.join(", ")})` : name,
    sources,
    label: (source) => (years.length > 1 && source.attribution.year !== null ? String(source.attribution.year) : undefined),
  };
}

/** Findings by period: decades when the years fit in MAX_PERIODS of them, else wider spans; each finding says who and when. */
function periodGroups(sources: OpenEndedSource[]): Group[] {
  const yearOf = (source: OpenEndedSource) => source.attribution.year!;
  const groups = (size: number) => {
    const byStart = new Map<number, OpenEndedSource[]>();
    for (const source of chronological(sources)) {
      const start = Math.floor(yearOf(source) / size) * size;
      byStart.set(start, [...(byStart.get(start) ?? []), source]);
    }
    return byStart;
  };
  const size = [10, 25, 50, 100].find((candidate) => groups(candidate).size <= MAX_PERIODS) ?? 100;
  return [...groups(size).entries()].map(([start, own]) => ({
    heading: size === 10 ? `${start}s` : `${start}–${start + size - 1}`,
    sources: own,
    label: (source) => `${source.attribution.speaker ?? source.entry.doc.title}, ${yearOf(source)}`,
  }));
}
