/**
 * How many hops a question takes. MuSiQue says it in its ids (2hop__…, 3hop1__…, 4hop3__…: the
 * digit is the number of single-hop questions composed). Other datasets do not, so the number of
 * distinct supporting-fact titles stands in: a HotpotQA bridge or comparison question rests on two
 * pages, a 2Wiki bridge-comparison on four.
 */
const MUSIQUE_ID = /^(\d+)hop/;

export function hopCount(id: string, goldTitles: readonly string[]): number {
  const musique = MUSIQUE_ID.exec(id);
  if (musique) return Number(musique[1]);
  return new Set(goldTitles).size;
}
