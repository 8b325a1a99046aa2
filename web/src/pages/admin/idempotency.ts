import { useRef } from "react";

/**
 * One idempotency key per intended submission of a money form. The key is made when the form is
 * filled and kept until the submission succeeds (`renew`) or the amount or note changes (`renew`
 * again: the same key with another body would be refused as reused). A double click or a retry
 * after a lost answer therefore sends the same key, and the API applies it once.
 */
export function useIdempotencyKey() {
  const key = useRef<string>(crypto.randomUUID());
  return {
    get current() {
      return key.current;
    },
    renew() {
      key.current = crypto.randomUUID();
    },
  };
}
