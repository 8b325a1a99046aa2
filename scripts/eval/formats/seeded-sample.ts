/**
 * A reproducible random sample: the same seed always picks the same items, in their original
 * order, so a committed sample can be made again from its source file and checked.
 */

/** mulberry32: a small PRNG that is the same in every JavaScript engine (Math.random cannot be seeded). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seededSample<T>(items: readonly T[], size: number, seed: number): T[] {
  if (size >= items.length) return [...items];
  const random = mulberry32(seed);
  const indexes = items.map((_, index) => index);
  // Fisher-Yates, stopped once the first `size` places are drawn.
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (indexes.length - i));
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes
    .slice(0, size)
    .sort((a, b) => a - b)
    .map((index) => items[index]!);
}
