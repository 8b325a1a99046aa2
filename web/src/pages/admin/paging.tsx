import { useState } from "react";

/** Rows per page of every admin list. */
export const PAGE_SIZE = 20;

/**
 * Paging without a total count (the API gives none): ask for one row more than a page, show a
 * page, and offer "Next" only when that extra row came back.
 */
export function usePage() {
  const [offset, setOffset] = useState(0);
  return {
    offset,
    /** The query to send: one extra row tells whether a next page exists. */
    query: { limit: PAGE_SIZE + 1, offset },
    reset: () => setOffset(0),
    previous: () => setOffset((value) => Math.max(0, value - PAGE_SIZE)),
    next: () => setOffset((value) => value + PAGE_SIZE),
  };
}

/** The rows of this page, and whether there is a next one. */
export function pageOf<T>(rows: T[]): { rows: T[]; hasNext: boolean } {
  return { rows: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE };
}

/** Previous / Next buttons named after what they page through ("Next page of users"). */
export function Pager({ page, hasNext, what }: { page: ReturnType<typeof usePage>; hasNext: boolean; what: string }) {
  if (page.offset === 0 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <button type="button" className="secondary" disabled={page.offset === 0} onClick={page.previous} aria-label={`Previous page of ${what}`}>
        Previous
      </button>
      <span className="muted">Page {page.offset / PAGE_SIZE + 1}</span>
      <button type="button" className="secondary" disabled={!hasNext} onClick={page.next} aria-label={`Next page of ${what}`}>
        Next
      </button>
    </nav>
  );
}
