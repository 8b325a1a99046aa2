/**
 * How deep a client's JSON nests, found without recursion: a 5,000-deep array is 10 KB of JSON
 * and would overflow the stack of any recursive walk (hashing, schema checks). Every walk of
 * client JSON runs only after this bound holds.
 */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
