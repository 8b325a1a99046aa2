import type { AsyncAccepted, JobEvent, ResearchMode, ResearchQuote, ResearchResult, SourceDto } from "../../research/service";

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
  return sources
    .map((source, index) => `[${index + 1}] ${source.title || source.url} (${[source.domain, ...byline(source)].join("; ")}): ${source.url}`)
    .join("\n");
}

/** Who wrote a source and when it was published, when the page says so: "by Jane Doe", "published 2024-05-01" (the day of `published_at`). */
function byline(source: SourceDto): string[] {
  return [source.author ? `by ${source.author}` : "", source.published_at ? `published ${source.published_at.slice(0, 10)}` : ""].filter(Boolean);
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
  if (result.partial && result.brief)
    parts.push(
      `Partial brief: the job stopped before the end of its research; this brief is written only from the ${result.sources.length} source(s) it had read.`,
    );
  if (result.brief) parts.push(result.brief);
  if (result.sources.length > 0) parts.push(`Sources:\n${sourceList(result.sources)}`);
  if (result.typed !== null && result.typed !== undefined) parts.push(`Typed output:\n${JSON.stringify(result.typed, null, 2)}`);
  return parts.join("\n\n");
}

/** What start_research says: the job's id, and how to follow it. */
export function startedText(job: AsyncAccepted, mode: ResearchMode): string {
  return [
    `Research job ${job.id} started (${mode}). It runs in the background, so this call returns at once.`,
    `Call get_research with id ${job.id} to see its status and, once it has succeeded, its answer, brief and sources; cancel_research stops it (charged only for the work done).`,
  ].join("\n");
}

/**
 * What quote_research says: the price, the envelope (the wall clock tells a client whether to
 * wait with deep_research or start with start_research), and whether the balance covers it.
 */
export function quoteText(quote: ResearchQuote): string {
  const { envelope } = quote;
  const price = quote.metered
    ? `up to ${quote.max_charge_credits} credits (${dollars(quote.max_charge_usd)}), metered: charged its work, ${quote.credits_reserved} credits reserved when submitted`
    : `${quote.max_charge_credits} credits (${dollars(quote.max_charge_usd)}), a fixed price reserved when submitted`;
  const covered =
    quote.covered_by === "balance"
      ? `The balance of ${quote.balance_credits} credits covers it.`
      : quote.covered_by === "plan_overage"
        ? `The balance of ${quote.balance_credits} credits does not, but your plan's overage covers the rest.`
        : `Not covered: ${quote.insufficient_credits ?? `the balance is ${quote.balance_credits} credits.`} deep_research and start_research would answer insufficient_credits.`;
  return [
    `Quote for a ${quote.mode} job (nothing was run, reserved or charged): ${price}.`,
    `It runs within ${envelope.max_waves} waves, ${envelope.max_searches} searches, ${envelope.max_pages} pages and ${envelope.max_wallclock_secs} s; ` +
      `deep_research waits that long for the result, so a client whose tool calls time out sooner should use start_research, then get_research.`,
    covered,
  ].join("\n");
}
