import type { JobEvent, ResearchResult, SourceDto } from "../../research/service";

/**
 * What the MCP tools say in words: a model reads the text content, so the brief, its numbered
 * sources and the job's cost are plain text; the same data in full is the structured content.
 */

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const dollars = (usd: number) => `$${usd.toFixed(4)}`;

/** A progress notification's message for one event of the job's stream; null for events not worth one. */
export function progressMessage(event: JobEvent): string | null {
  switch (event.event) {
    case "status":
      return `Status: ${event.data.status}`;
    case "progress": {
      const { stage, wave, searches, pages, cost_usd } = event.data;
      return [stage, `wave ${wave}`, `${searches} searches`, `${pages} pages read`, `${dollars(cost_usd)} spent`].join(" · ");
    }
    case "source":
      return `Read: ${event.data.title || event.data.url} (${event.data.domain})`;
    case "error":
      return `Failed: ${event.data.message}`;
    case "result":
      return null;
  }
}

/** The numbered source list: [n] in the brief is line n. */
export function sourceList(sources: SourceDto[]): string {
  return sources.map((source, index) => `[${index + 1}] ${source.title || source.url} (${source.domain}): ${source.url}`).join("\n");
}

function outcomeLine(result: ResearchResult): string {
  const job = `Research job ${result.id}`;
  switch (result.status) {
    case "succeeded": {
      const parts = [`charged ${result.credits_charged} credits`, `${dollars(result.cost_usd)} of work`];
      if (result.latency_ms !== null) parts.push(seconds(result.latency_ms));
      return `${job} succeeded: ${parts.join(", ")}.`;
    }
    case "failed":
      return `${job} failed: ${(result.error ?? "unknown error").replace(/\.$/, "")}. Charged ${result.credits_charged} credits.`;
    case "cancelled":
      return `${job} was cancelled. Charged ${result.credits_charged} credits for the work already done.`;
    default:
      return `${job} is ${result.status}. Ask again with get_research and id ${result.id}.`;
  }
}

const CONFIDENCE_WORDS = { high: "high confidence", medium: "medium confidence", low: "low confidence" } as const;

/**
 * The short answer of a succeeded job, cited as the brief cites ([index + 1]); when the job has
 * none, that the sources do not answer, so a model never takes the brief's first line for one.
 * Null for a job that did not succeed: it has no answer to give either way.
 */
export function answerLine(result: ResearchResult): string | null {
  if (result.status !== "succeeded") return null;
  const { answer } = result;
  if (!answer) return "Answer: none. The sources read do not answer this question.";
  const cited = answer.citations.map((index) => `[${index + 1}]`).join("");
  return `Answer (${CONFIDENCE_WORDS[answer.confidence]}): ${answer.text}${cited ? ` ${cited}` : ""}`;
}

/** A job in words: its short answer first, its outcome and cost, then the brief, its sources and typed output. */
export function resultText(result: ResearchResult): string {
  const answer = answerLine(result);
  const parts = [...(answer ? [answer] : []), outcomeLine(result), `Question: ${result.question}`];
  if (result.brief) parts.push(result.brief);
  if (result.sources.length > 0) parts.push(`Sources:\n${sourceList(result.sources)}`);
  if (result.typed !== null && result.typed !== undefined) parts.push(`Typed output:\n${JSON.stringify(result.typed, null, 2)}`);
  return parts.join("\n\n");
}
