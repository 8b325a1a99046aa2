import { http, HttpResponse } from "msw";

/** What the fake DNS-over-HTTPS resolver answers for a name: addresses, a CNAME, or a failure. */
export type DohRecord = { addresses: readonly string[]; ttl?: number } | { cname: string; ttl?: number } | { status: number } | { httpStatus: number };

export const DOH_URL = "https://cloudflare-dns.com/dns-query";
/** A public address (what names the table does not list resolve to). */
export const PUBLIC_ADDRESS = "93.184.215.14";

/**
 * An MSW handler playing Cloudflare's DNS over HTTPS (JSON API) from a table of names; a name not
 * in the table resolves to PUBLIC_ADDRESS. Every question asked is pushed onto `asked` ("name type").
 */
export function dohHandler(table: Record<string, DohRecord>, asked: string[] = [], url = DOH_URL) {
  return http.get(url, ({ request }) => {
    const params = new URL(request.url).searchParams;
    const name = (params.get("name") ?? "").replace(/\.$/, "");
    const type = params.get("type") ?? "A";
    asked.push(`${name} ${type}`);
    if (request.headers.get("Accept") !== "application/dns-json") return new HttpResponse("wrong Accept", { status: 400 });
    const record = table[name] ?? { addresses: [PUBLIC_ADDRESS] };
    if ("httpStatus" in record) return new HttpResponse("resolver down", { status: record.httpStatus });
    if ("status" in record) return HttpResponse.json({ Status: record.status, Question: [{ name, type: 1 }] });
    const ttl = record.ttl ?? 300;
    if ("cname" in record) {
      // Like a recursive resolver: the CNAME, then the target's records of this type when the table knows them.
      const target = table[record.cname];
      const tail = target && "addresses" in target ? target.addresses.filter((a) => (type === "A") === !a.includes(":")) : [];
      return HttpResponse.json({
        Status: 0,
        Answer: [
          { name: `${name}.`, type: 5, TTL: ttl, data: `${record.cname}.` },
          ...tail.map((data) => ({ name: `${record.cname}.`, type: type === "A" ? 1 : 28, TTL: ttl, data })),
        ],
      });
    }
    const answers = record.addresses.filter((address) => (type === "A") === !address.includes(":"));
    return HttpResponse.json({ Status: 0, Answer: answers.map((data) => ({ name: `${name}.`, type: type === "A" ? 1 : 28, TTL: ttl, data })) });
  });
}
