import { createMiddleware } from "hono/factory";
import { readBodyWithin } from "../http/bounded-body";
import { ApiError } from "../lib/errors";
import { UPLOAD_LIMITS } from "../research/service";

// How documents arrive at POST /collections/{id}/documents: the body's type and size checked
// before it is parsed, and the uploaded files taken from a multipart form.

/**
 * Before the body validators: only JSON or multipart bodies are read here (415 for anything else),
 * and a body over the bound is refused (413): by its Content-Length before it is read, and without
 * one (chunked) as it streams, at the first chunk past the bound. The validators then parse the
 * body read here (the request is replaced by one that carries it).
 */
export const ingestContentType = createMiddleware(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json") && !type.startsWith("multipart/form-data")) {
    throw new ApiError("unsupported_media_type", "Send application/json ({documents: [...]}) or multipart/form-data with `file` parts.");
  }
  const length = Number(c.req.header("Content-Length") ?? 0);
  if (length > UPLOAD_LIMITS.requestBytes) {
    throw new ApiError(
      "payload_too_large",
      `The request body is ${length} bytes; one call may send at most ${UPLOAD_LIMITS.requestBytes} (21 MB). Send the files in several calls.`,
    );
  }
  const body = await readBodyWithin(c.req.raw.body, UPLOAD_LIMITS.requestBytes);
  if (!body) {
    throw new ApiError(
      "payload_too_large",
      `The request body is over ${UPLOAD_LIMITS.requestBytes} bytes (21 MB), the most one call may send; it was not read further. Send the files in several calls.`,
    );
  }
  c.req.raw = new Request(c.req.raw, { body });
  await next();
});

/** The `file` parts of a multipart upload (one part, or several under the same name). */
export function uploadedFiles(form: { file?: unknown }): File[] {
  return [form.file].flat().filter((part): part is File => part instanceof File);
}
