import type { ResearchResult, SourceDto } from "../../research/service";
import type { JobStreamEvent } from "./sse-reader";

/**
 * What the MCP tools say in words: a model reads the text content, so the brief, its numbered
 * sources and the job's cost are plain text; the same data in full is the structured content.
 */

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const dollars = (usd: number) => `$${usd.toFixed(4)}`;

/** A progress notification's message for one event of the job's stream; null for events not worth one. */
export function progressMessage(event: JobStreamEvent): string | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.event) {
    case "status":
      return `Status: ${String(data.status)}`;
    case "progress":
      return [
        String(data.stage),
        `wave ${Number(data.wave)}`,
        `${Number(data.searches)} searches`,
        `${Number(data.pages)} pages read`,
        `${dollars(Number(data.cost_usd))} spent`,
      ].join(" · ");
    case "source": {
      const source = data as Partial<SourceDto>;
      return `Read: ${source.title || source.url} (${source.domain})`;
    }
    case "error":
      return `Failed: ${String(data.message)}`;
    default:
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

/** A job in words: its outcome and cost, then (once it has them) the brief, its sources and typed output. */
export function resultText(result: ResearchResult): string {
  const parts = [outcomeLine(result), `Question: ${result.question}`];
  if (result.brief) parts.push(result.brief);
  if (result.sources.length > 0) parts.push(`Sources:\n${sourceList(result.sources)}`);
  if (result.typed !== null && result.typed !== undefined) parts.push(`Typed output:\n${JSON.stringify(result.typed, null, 2)}`);
  return parts.join("\n\n");
}
