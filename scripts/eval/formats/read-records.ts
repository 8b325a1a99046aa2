/** A dataset file's records, whether it is one JSON array (HotpotQA, 2Wiki) or JSON lines (MuSiQue). */
export function readRecords(path: string, text: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[")) {
    const parsed: unknown = JSON.parse(trimmed);
    if (!Array.isArray(parsed)) throw new Error(`${path}: not a JSON array`);
    return parsed;
  }
  return trimmed
    .split("\n")
    .map((line, index) => ({ line: line.trim(), index }))
    .filter(({ line }) => line !== "")
    .map(({ line, index }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new Error(`${path}:${index + 1}: not a JSON line (${(error as Error).message})`);
      }
    });
}
