import type { ResearchResult, Source } from "../types.js";

/** A url inside Markdown's (…): spaces and parentheses would end it early. */
function linkTarget(url: string): string {
  return url.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Who wrote it and when it was published, when the page says so: " — by Jane Doe, 2024-05-01" (the day of `published_at`). */
function byline(source: Source): string {
  const parts = [source.author ? `by ${source.author}` : "", source.published_at?.slice(0, 10) ?? ""].filter(Boolean);
  return parts.length > 0 ? ` — ${parts.join(", ")}` : "";
}

function sourceLine(source: Source, index: number): string {
  const title = (source.title || source.url).replace(/[[\]]/g, "\\$&");
  return `${index + 1}. [${title}](${linkTarget(source.url)}) — ${source.domain}${byline(source)}`;
}

const CONFIDENCE = { high: "High confidence", medium: "Medium confidence", low: "Low confidence" } as const;

/**
 * The short answer line above the brief, cited as the brief cites ([index + 1]). A job without
 * one says so, so a reader never takes the brief's opening for an answer the sources do not give.
 */
export function answerLine(result: ResearchResult): string {
  const { answer } = result;
  if (!answer) return "**Answer:** none. The sources read do not answer this question.";
  const cited = answer.citations.map((index) => `[${index + 1}]`).join("");
  return `**Answer:** ${answer.text}${cited ? ` ${cited}` : ""} _(${CONFIDENCE[answer.confidence]})_`;
}

/**
 * A succeeded job as Markdown: the question as the title, the short answer and its confidence,
 * the brief (its [n] cite the numbered sources), then the sources list, numbered as the brief cites them.
 */
export function resultMarkdown(result: ResearchResult): string {
  const parts = [`# ${result.question.replace(/\s+/g, " ")}`, answerLine(result), (result.brief ?? "").trim()];
  if (result.sources.length > 0) parts.push(`## Sources\n\n${result.sources.map(sourceLine).join("\n")}`);
  return `${parts.filter(Boolean).join("\n\n")}\n`;
}

/**
 * The result as --json prints it: the service's fields unchanged, with `answer` moved up beside
 * the question, so a person reading the JSON sees the short answer before the brief.
 */
export function resultJson(result: ResearchResult): string {
  const { id, status, question, answer, ...rest } = result;
  return `${JSON.stringify({ id, status, question, answer, ...rest }, null, 2)}\n`;
}
