import { ApiError } from "./errors";

/** An Idempotency-Key header: 1 to 255 printable ASCII characters (research submits and document ingest). */
const IDEMPOTENCY_KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** Throws `invalid` (400) for an Idempotency-Key header that is present but not 1 to 255 printable ASCII characters. */
export function checkIdempotencyKey(idempotencyKey: string | undefined): void {
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_FORMAT.test(idempotencyKey)) {
    throw ApiError.invalid("Invalid request: Idempotency-Key must be 1 to 255 printable ASCII characters.");
  }
}
