import type { Context } from "hono";
import type { Paging } from "../lib/paging";

/**
 * Paging by headers (RFC 8288), the body staying the bare array the spec gives lists: a route asks
 * its service for one row more than the page (`peek`), and `pageWithLink` answers the page, with
 * `Link: <…>; rel="next"` when that extra row exists. No count query, no cursor to keep.
 */
export function peek<P extends Paging>(page: P): P {
  return { ...page, limit: page.limit + 1 };
}

/** The page's rows; sets the Link header to the next page when `rows` (fetched with `peek`) holds more. */
export function pageWithLink<T>(c: Context, rows: T[], page: Paging): T[] {
  if (rows.length <= page.limit) return rows;
  const next = new URL(c.req.url);
  next.searchParams.set("limit", String(page.limit));
  next.searchParams.set("offset", String(page.offset + page.limit));
  c.header("Link", `<${next.toString()}>; rel="next"`);
  return rows.slice(0, page.limit);
}

/** The Link header as documented on every list operation's 200. */
export const NEXT_PAGE_HEADER = {
  Link: {
    description: 'Present when another page exists: `<url>; rel="next"`, the same request with `offset` moved past this page. Absent on the last page.',
    schema: { type: "string" as const },
  },
};
