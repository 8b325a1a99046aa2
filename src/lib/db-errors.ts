/**
 * True when `error` (or any error in its `cause` chain: Drizzle wraps D1's error in its own
 * "Failed query" error) is a SQLite UNIQUE violation, optionally on a given index or column list.
 */
export function isUniqueViolation(error: unknown, target = ""): boolean {
  return isConstraintViolation(error, "UNIQUE", target);
}

/** The same for a NOT NULL violation (a guard statement that aborts a batch when a row it needs is missing). */
export function isNotNullViolation(error: unknown, target = ""): boolean {
  return isConstraintViolation(error, "NOT NULL", target);
}

function isConstraintViolation(error: unknown, kind: string, target: string): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message.includes(`${kind} constraint failed`) && message.includes(target)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}
