import { useState } from "react";

/** Rows per page unless a list says otherwise. */
export const PAGE_SIZE = 20;

/**
 * Paging without a total count (the API gives none): ask for one row more than a page, show a
 * page, and offer "Next" only when that extra row came back.
 */
export function usePage(size = PAGE_SIZE) {
  const [offset, setOffset] = useState(0);
  return {
    size,
    offset,
    /** The query to send: one extra row tells whether a next page exists. */
    query: { limit: size + 1, offset },
    reset: () => setOffset(0),
    previous: () => setOffset((value) => Math.max(0, value - size)),
    next: () => setOffset((value) => value + size),
  };
}

/** The rows of this page, and whether there is a next one. */
export function pageOf<T>(rows: T[], size = PAGE_SIZE): { rows: T[]; hasNext: boolean } {
  return { rows: rows.slice(0, size), hasNext: rows.length > size };
}

/** Previous / Next buttons named after what they page through ("Next page of users"). */
export function Pager({
  page,
  hasNext,
  what,
}: {
  page: Pick<ReturnType<typeof usePage>, "size" | "offset" | "previous" | "next">;
  hasNext: boolean;
  what: string;
}) {
  if (page.offset === 0 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <button type="button" className="secondary" disabled={page.offset === 0} onClick={page.previous} aria-label={`Previous page of ${what}`}>
        Previous
      </button>
      <span className="muted">Page {page.offset / page.size + 1}</span>
      <button type="button" className="secondary" disabled={!hasNext} onClick={page.next} aria-label={`Next page of ${what}`}>
        Next
      </button>
    </nav>
  );
}
