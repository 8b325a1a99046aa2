// The Worker bench/reader.ts runs in workerd: POST /extract reads the body as a page and runs
// extractPage on it (x-budget: a DOM budget in bytes other than the reader's and no element cap,
// to measure the DOM past them); POST /noop reads the body and answers, the cost of the request alone.
import { extractPageWithPath } from "../../src/research/providers/reader/extract";

export default {
  async fetch(request: Request): Promise<Response> {
    const html = await request.text();
    if (new URL(request.url).pathname === "/noop") return Response.json({ chars: html.length });
    const budget = request.headers.get("x-budget");
    const limits = budget ? { bytes: Number(budget), elements: Number.MAX_SAFE_INTEGER } : undefined;
    const { page, path } = extractPageWithPath(html, request.headers.get("x-page-url") ?? "https://example.com/", limits);
    return Response.json({ path, chars: page.text.length });
  },
};
