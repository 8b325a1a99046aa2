import { describe, expect, it } from "vitest";
import { UPLOAD_LIMITS } from "../../src/research/collections/limits";
import { BASE, call, expectError, json, randomIp } from "../helpers";
import { recordExchange } from "../setup/response-contract";
import { apiCaller, balanceOf } from "../research/helpers";

/**
 * A body without Content-Length (chunked) over the request bound is refused as it streams
 * (issue 39): before, a 200 MB multipart body was read whole (RSS +417 MB) before its 413.
 */

const MB = 1024 * 1024;

/** A multipart body of `size` bytes made as it is read, counting how much was read. */
function chunkedMultipart(size: number) {
  const boundary = "bound-39";
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`);
  const filler = new Uint8Array(64 * 1024).fill(0x61);
  const progress = { pulled: 0 };
  let sentHead = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sentHead) {
        sentHead = true;
        progress.pulled += head.length;
        return controller.enqueue(head);
      }
      if (progress.pulled >= size) return controller.close();
      progress.pulled += filler.length;
      controller.enqueue(filler);
    },
  });
  return { body, boundary, progress };
}

describe("a request body without Content-Length", () => {
  it("over 21 MB is refused at the first chunk past the bound, the rest never read (413)", async () => {
    const caller = await apiCaller();
    const id = (await json(await call("/v1/collections", { token: caller.key, body: { name: "Chunked" } }))).id;
    const balance = await balanceOf(caller);
    const { body, boundary, progress } = chunkedMultipart(200 * MB);
    const request = new Request(`${BASE}/v1/collections/${id}/documents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.key}`, "CF-Connecting-IP": randomIp(), "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(request.headers.get("Content-Length")).toBeNull();
    const response = await (await import("cloudflare:workers")).exports.default.fetch(request);
    recordExchange(request, response);
    const error = await expectError(response, 413, "payload_too_large");
    expect(error.error.message).toBe(
      `The request body is over ${UPLOAD_LIMITS.requestBytes} bytes (21 MB), the most one call may send; it was not read further. Send the files in several calls.`,
    );
    // Read up to the bound and a chunk or two of the stream's queue past it, not 200 MB.
    expect(progress.pulled).toBeGreaterThan(UPLOAD_LIMITS.requestBytes);
    expect(progress.pulled).toBeLessThan(UPLOAD_LIMITS.requestBytes + MB);
    expect(await balanceOf(caller)).toBe(balance);
  });

  it("within the bound is read and written as before (multipart and JSON)", async () => {
    const caller = await apiCaller();
    const id = (await json(await call("/v1/collections", { token: caller.key, body: { name: "Chunked" } }))).id;
    const boundary = "bound-39-small";
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="canal.txt"\r\nContent-Type: text/plain\r\n\r\nThe canal opened in 1825.\r\n--${boundary}--\r\n`;
    const send = (text: string, type: string) =>
      (async () => {
        const request = new Request(`${BASE}/v1/collections/${id}/documents`, {
          method: "POST",
          headers: { Authorization: `Bearer ${caller.key}`, "CF-Connecting-IP": randomIp(), "Content-Type": type },
          body: new Blob([text]).stream(), // a stream: no Content-Length
        });
        const response = await (await import("cloudflare:workers")).exports.default.fetch(request);
        recordExchange(request, response);
        return response;
      })();
    expect((await json(await send(multipart, `multipart/form-data; boundary=${boundary}`))).ingested).toBe(1);
    const documents = JSON.stringify({ documents: [{ title: "Bridge", text: "The bridge was inspected in May." }] });
    expect((await json(await send(documents, "application/json"))).ingested).toBe(1);
    expect((await json(await call(`/v1/collections/${id}`, { token: caller.key }))).document_count).toBe(2);
  });
});
