/**
 * The brief's Markdown: the one place it is written and read. Everything that writes a
 * brief renders blocks here; everything that reads one (the model's answer, the checks on a
 * brief's citations) parses it here. The format, as the OpenAPI description of `brief` states it:
 *
 *   The opening paragraph: its sentences on one line, each ending with its markers [1][2].
 *
 *   ## Findings                a section of a longer report (pro and max with a model)
 *   **Grover Cleveland**       a group: the subject of the findings below it
 *   - One finding [3].         a bullet: one line, one finding
 *
 * Blocks are separated by a blank line; a block is an optional heading line, then one paragraph
 * line or bullet lines. A claim ends with one or more [n] markers (1-based into `sources`),
 * placed before its closing punctuation. `## Open questions` lists questions, which cite nothing.
 *
 * This module imports nothing: the dashboard's reader (web/src/research/brief-blocks.ts) is held
 * to it by test/repo/brief-format.test.ts.
 */

/** `section`: "## Findings", a part of a report. `group`: "**Title**", the subject of the findings under it. */
export type BriefHeadingKind = "section" | "group";

export interface BriefHeading {
  kind: BriefHeadingKind;
  title: string;
}

export interface BriefBlock {
  heading: BriefHeading | null;
  /** Bullet lines ("- "), or a paragraph. */
  bullets: boolean;
  /** The bullets' texts, or the paragraph's lines (written: its sentences, joined on one line). */
  lines: string[];
}

// ---- Writing ---------------------------------------------------------------------------------

/** The brief's Markdown. A block with no lines is left out: a heading never stands without its lines. */
export function renderBrief(blocks: BriefBlock[]): string {
  return blocks
    .filter((block) => block.lines.length > 0)
    .map((block) => {
      const heading = block.heading === null ? [] : [headingLine(block.heading)];
      const body = block.bullets ? block.lines.map((line) => `- ${line}`) : [block.lines.join(" ")];
      return [...heading, ...body].join("\n");
    })
    .join("\n\n");
}

function headingLine(heading: BriefHeading): string {
  return heading.kind === "section" ? `## ${heading.title}` : `**${heading.title}**`;
}

/** "[1][3]": the markers of these sources, each once, in order. */
export function markers(numbers: number[]): string {
  return [...new Set(numbers)]
    .sort((a, b) => a - b)
    .map((n) => `[${n}]`)
    .join("");
}

/** A sentence with its markers, placed before its closing punctuation (any markers it had are replaced). */
export function cite(sentence: string, numbers: number[]): string {
  const text = withoutMarkers(sentence.trim());
  const match = /^(.*?)([.!?])(["”’)]*)$/su.exec(text);
  if (!match) return `${text} ${markers(numbers)}.`;
  return `${match[1]}${match[3]} ${markers(numbers)}${match[2]}`;
}

/** A sentence of clauses, each cited where it ends: `lead`, the clauses joined by "; ", then `end`. */
export function citeClauses(lead: string, clauses: { text: string; numbers: number[] }[], end: string): string {
  return `${lead}${clauses.map((clause) => `${clause.text} ${markers(clause.numbers)}`).join("; ")}${end}`;
}

/** A cited line said by someone at some time ("Grover Cleveland, 1893: ..."): the label is not part of the claim. */
export function labelled(label: string, citedLine: string): string {
  return `${label}: ${citedLine}`;
}

// ---- Reading ---------------------------------------------------------------------------------

const BULLET = /^(?:[-*•]|\d+\.)\s+/;

/**
 * A heading line: a section ("## Findings", any of # to ######) or a group ("**Shirley Temple**",
 * a trailing colon allowed); null for any other line. Emphasis marks and a final colon are not
 * part of the title. Lenient, because a model writes headings its own way.
 */
export function parseHeading(line: string): BriefHeading | null {
  const trimmed = line.trim();
  const section = /^#{1,6}\s+(.+?)\s*#*$/.exec(trimmed)?.[1];
  const group = /^\*\*([^*]+)\*\*:?$/.exec(trimmed)?.[1];
  const title = (section ?? group)?.replace(/[*_]/g, "").replace(/:$/, "").trim();
  return title ? { kind: section !== undefined ? "section" : "group", title } : null;
}

/** A bullet's text ("- ", "* ", "• " or "1. " taken off); null for a line that is not a bullet. */
export function bulletText(line: string): string | null {
  const trimmed = line.trim();
  return BULLET.test(trimmed) ? trimmed.replace(BULLET, "").trim() : null;
}

/**
 * The blocks of a brief (or of a model's text in this format). A heading opens a block; a blank
 * line ends one that has lines; bullets and paragraph lines never share a block (a paragraph after
 * bullets, or bullets after a paragraph, open a new block with no heading). A heading with nothing
 * under it before the next heading stays a block of its own with no lines (a section whose
 * content is groups: "## Findings", then "**Title**" and its bullets).
 */
export function parseBrief(markdown: string): BriefBlock[] {
  const blocks: BriefBlock[] = [];
  let open: BriefBlock | null = null;
  for (const raw of markdown.split("\n")) {
    const line = raw.trim();
    if (!line) {
      if (open && open.lines.length > 0) open = null;
      continue;
    }
    const heading = parseHeading(line);
    if (heading) {
      open = { heading, bullets: false, lines: [] };
      blocks.push(open);
      continue;
    }
    const item = bulletText(line);
    const bullets = item !== null;
    if (!open || (open.lines.length > 0 && open.bullets !== bullets)) {
      open = { heading: null, bullets, lines: [] };
      blocks.push(open);
    }
    open.bullets = bullets;
    open.lines.push(item ?? line);
  }
  return blocks;
}

/** The [n] numbers in a text, in order, repeats included. */
export function markersIn(text: string): number[] {
  return [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}

/** The text without its [n] markers (and the space before each). */
export function withoutMarkers(text: string): string {
  return text.replace(/\s*\[\d+\]/g, "");
}

/** A line of text and its markers, in order: what a reader shows as text and as links to sources. */
export type InlinePart = { text: string } | { source: number };

export function inlineParts(text: string): InlinePart[] {
  return text
    .split(/(\[\d+\])/)
    .filter(Boolean)
    .map((part) => {
      const marker = /^\[(\d+)\]$/.exec(part);
      return marker ? { source: Number(marker[1]) } : { text: part };
    });
}

/** A line's sentences: a sentence ends after its markers and closing punctuation ("... [2]. Next"). */
export function lineSentences(line: string): string[] {
  return line
    .split(/(?<=\][.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}
