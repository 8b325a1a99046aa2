import { useState } from "react";

/**
 * Paging for the API's limit/offset lists, which carry no total: one row more than a page is asked
 * for, and its presence says an older page exists. (Also used by the billing page's payment history.)
 */
export function usePage(size: number) {
  const [page, setPage] = useState(0);
  return {
    page,
    setPage,
    query: { limit: size + 1, offset: page * size },
    /** The rows to show and whether an older page exists. */
    slice<T>(rows: T[]) {
      return { rows: rows.slice(0, size), hasMore: rows.length > size };
    },
  };
}

export function Pager({ label, page, hasMore, onPage }: { label: string; page: number; hasMore: boolean; onPage: (page: number) => void }) {
  if (page === 0 && !hasMore) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Newer
      </button>
      <span>Page {page + 1}</span>
      <button type="button" className="secondary" disabled={!hasMore} onClick={() => onPage(page + 1)}>
        Older
      </button>
    </nav>
  );
}
