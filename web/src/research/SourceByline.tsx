import type { Schemas } from "../api/client";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A source's `published_at` as its day ("2024-05-01T09:30:00Z" is "1 May 2024", the UTC day), as the brief's dateline says it; null when it is no date. */
export function sourceDate(publishedAt: string): string | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(publishedAt);
  const month = day ? MONTHS[Number(day[2]) - 1] : undefined;
  return day && month ? `${Number(day[3])} ${month} ${day[1]}` : null;
}

/** Who wrote a source and when it was published, when the page says so (issue 42), after its domain ("· by Jane Doe, 1 May 2024"); nothing otherwise. */
export function SourceByline({ source }: { source: Pick<Schemas["SourceDto"], "published_at" | "author"> }) {
  const date = source.published_at ? sourceDate(source.published_at) : null;
  if (!date && !source.author) return null;
  return (
    <span className="muted source-byline">
      {"· "}
      {source.author && <span>by {source.author}</span>}
      {source.author && date && ", "}
      {date && <time dateTime={source.published_at}>{date}</time>}
    </span>
  );
}
