/**
 * A search query cut to a provider's length limit at a word boundary. An engine query is short,
 * but the first one of a job can be the caller's question (up to the request's limit), and a
 * provider refuses a query past its limit instead of reading what it can (issue 41, item 6).
 */
export function cutQuery(text: string, maxChars: number, maxWords = Number.POSITIVE_INFINITY): string {
  const words = text.trim().split(/\s+/).filter(Boolean).slice(0, maxWords);
  let query = words.join(" ");
  while (query.length > maxChars && words.length > 1) {
    words.pop();
    query = words.join(" ");
  }
  return query.slice(0, maxChars);
}
