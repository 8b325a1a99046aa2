/**
 * True when `error` (or any error in its `cause` chain: Drizzle wraps D1's error in its own
 * "Failed query" error) is a SQLite UNIQUE violation, optionally on a given index or column list.
 */
export function isUniqueViolation(error: unknown, target = ""): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message.includes("UNIQUE constraint failed") && message.includes(target)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}
