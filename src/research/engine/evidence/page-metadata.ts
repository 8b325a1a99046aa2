import { MONTHS } from "../language";

/** What a page says of itself beside its text: its date and author, and the dateline the brief gives a source. */

const MONTH_NAMES = MONTHS.split("|");

/** A page's date and author, as a page gives them beside its text. */
export interface PageMetadata {
  published_at?: string;
  author?: string;
}

/**
 * A page's date and author as a sentence of its own ("This page was published on 1 May 2024 by Jane
 * Doe."), or null without either. It is appended to the page's text as evidence: a claim
 * must rest on a verbatim quote, so metadata is evidence only as text a quote can be checked
 * against. It says "this page": the date is the page's, not that of what the page is about (a
 * page on Frankenstein published in 2004 does not date the novel). The date is the day part of
 * `published_at` (a time is in UTC), month in words, as the claim check and the short answer read dates.
 */
export function dateline(page: PageMetadata): string | null {
  const date = pageDate(page.published_at);
  const author =
    page.author
      ?.replace(/\s+/g, " ")
      .replace(/[\s.,;:]+$/, "")
      .trim() || null;
  if (date && author) return `This page was published on ${date} by ${author}.`;
  if (date) return `This page was published on ${date}.`;
  return author ? `This page was written by ${author}.` : null;
}

/** The day of an ISO 8601 date or time in words ("2024-05-01T14:30:00Z" is "1 May 2024"); null when it is none. */
export function pageDate(publishedAt: string | undefined): string | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(publishedAt ?? "");
  const month = day ? MONTH_NAMES[Number(day[2]) - 1] : undefined;
  return day && month && Number(day[3]) >= 1 ? `${Number(day[3])} ${month} ${day[1]}` : null;
}

/** A source's date and author, when its page states them (absent otherwise): what a SourceDto carries of them. */
export function sourceMetadata(doc: PageMetadata): PageMetadata {
  return { ...(doc.published_at ? { published_at: doc.published_at } : {}), ...(doc.author ? { author: doc.author } : {}) };
}
