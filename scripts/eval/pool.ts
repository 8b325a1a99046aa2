/**
 * Runs `work` over `items` with at most `concurrency` in flight, keeping the items' order in the
 * results. Once `stopped()` is true no further item starts (the results then have holes).
 */
export async function mapPool<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
  stopped: () => boolean = () => false,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stopped()) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
