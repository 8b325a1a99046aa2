import { ApiPromise, type WithResponse } from "./api-promise.js";

/** Where a list starts: how many items a page holds (1 to 100, default 20) and how many to skip. */
export interface Paging {
  limit?: number;
  offset?: number;
}

function queryOf(target: string): URLSearchParams | null {
  try {
    return new URL(target, "http://link.invalid").searchParams;
  } catch {
    return null;
  }
}

/**
 * The next page's paging from a response's `Link` header (`<url>; rel="next"`, RFC 8288), or null
 * on the last page. Only its `limit` and `offset` are taken: the next request goes to the client's
 * own base URL, with the key, so a Link naming another host can never receive the key.
 */
export function nextPaging(link: string | null): Required<Paging> | null {
  // Each link is `<url>` and its parameters up to the next `<` (a url may itself hold commas).
  for (const [, target, params] of (link ?? "").matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*("[^"]*"|[^;,\s]*)/i.exec(params!)?.[1]?.replace(/"/g, "") ?? "";
    if (!rel.toLowerCase().split(/\s+/).includes("next")) continue;
    const query = queryOf(target!);
    const limit = Number(query?.get("limit") ?? Number.NaN);
    const offset = Number(query?.get("offset") ?? Number.NaN);
    return Number.isInteger(limit) && limit > 0 && Number.isInteger(offset) && offset >= 0 ? { limit, offset } : null;
  }
  return null;
}

/**
 * What a list call returns: awaited, the first page (an array, as before); iterated with
 * `for await`, every item of every page, fetching the next page (from the `Link` header) only
 * when the items of this one are used up.
 *
 *     for await (const job of client.research.list({ status: "succeeded" })) console.log(job.id);
 */
export class PagePromise<Item> extends ApiPromise<Item[]> implements AsyncIterable<Item> {
  constructor(private readonly fetchPage: (paging: Paging | null) => Promise<WithResponse<Item[]>>) {
    super(fetchPage(null));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    let page = await this.withResponse();
    for (;;) {
      yield* page.data;
      const next = nextPaging(page.response.headers.get("Link"));
      if (!next || page.data.length === 0) return;
      page = await this.fetchPage(next);
    }
  }
}
