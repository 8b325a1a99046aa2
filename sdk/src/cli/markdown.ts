import type { ResearchResult, Source } from "../types.js";

/** A url inside Markdown's (…): spaces and parentheses would end it early. */
function linkTarget(url: string): string {
  return url.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sourceLine(source: Source, index: number): string {
  const title = (source.title || source.url).replace(/[[\]]/g, "\\$&");
  return `${index + 1}. [${title}](${linkTarget(source.url)}) — ${source.domain}`;
}

/**
 * A succeeded job as Markdown: the question as the title, the brief (its [n] cite the
 * numbered sources), then the sources list, numbered as the brief cites them.
 */
export function resultMarkdown(result: ResearchResult): string {
  const parts = [`# ${result.question.replace(/\s+/g, " ")}`, (result.brief ?? "").trim()];
  if (result.sources.length > 0) parts.push(`## Sources\n\n${result.sources.map(sourceLine).join("\n")}`);
  return `${parts.filter(Boolean).join("\n\n")}\n`;
}
