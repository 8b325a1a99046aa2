import { dateline, type EvidenceAnalysis, type EvidenceDoc, type Passage } from "../../evidence";
import { words } from "../../language";
import type { QueryAnalysis } from "../../question";

/** The best-ranked passages of a source that always go first, after its lead sentence. */
const TOP_PASSAGES = 6;

/**
 * What the model is shown of each numbered source (the evidence the model needs): its
 * lead sentence and best-ranked passages first, then the passages that name what the question
 * names or the next hop's entities, then those with the figures a "how many / how much / when"
 * question asks for, then the rest by rank, as many as the source's fair share of the context
 * holds; written in page order. A page the model's reflection asked to see more of (`more_of`)
 * has twice the share, and the rest of it in page order rather than by rank. A page's date and
 * author stand beside its title and, as its dateline sentence, among what is shown. Showing only
 * the six best-ranked sentences would leave out a figure an answer needs on a page that was read.
 */
export function evidenceBlocks(
  numbered: EvidenceDoc[],
  analysis: EvidenceAnalysis,
  query: QueryAnalysis,
  maxChars: number,
  readMore: ReadonlySet<number> = new Set(),
): string[] {
  // A page the reflection asked to see more of has twice the share, and all of its passages after the chosen ones.
  const weight = (doc: EvidenceDoc) => (readMore.has(doc.index) ? 2 : 1);
  const unit = Math.floor(
    maxChars /
      Math.max(
        1,
        numbered.reduce((sum, doc) => sum + weight(doc), 0),
      ),
  );
  const names = [...query.entities, ...analysis.bridgeEntities].map((name) => words(name).join(" ")).filter((name) => name.length > 2);
  const wantsFigures = /\b(how (many|much|long|old|far|tall|big)|what (year|date|number|amount|percentage)|when)\b/i.test(query.question);
  return numbered.map((doc, index) => {
    // The page's date and author beside its title, and its dateline always among what is shown:
    // the sentence a claim of when (or by whom) quotes.
    const line = dateline(doc);
    const header = `[${index + 1}] ${doc.title} (${doc.domain}${line ? `; ${line.replace(/^This page was /, "").slice(0, -1)}` : ""})`;
    const last = doc.passages.at(-1);
    const datelinePassage = line && last && last.start === doc.text.length - line.length ? last : undefined;
    const ranked = (analysis.ranked.find((entry) => entry.doc.index === doc.index)?.best ?? []).map((item) => item.passage);
    const named = doc.passages.filter((passage) => names.some((name) => ` ${words(passage.text).join(" ")} `.includes(` ${name} `)));
    const figures = wantsFigures ? doc.passages.filter((passage) => /\d/.test(passage.text)) : [];
    const share = unit * weight(doc);
    const first = [...doc.passages.slice(0, 1), ...(datelinePassage ? [datelinePassage] : []), ...ranked.slice(0, TOP_PASSAGES)];
    // A page asked for more of is read on in page order, not by rank: what the ranking missed is what is wanted.
    const order = readMore.has(doc.index) ? [...first, ...doc.passages] : [...first, ...named, ...figures, ...ranked.slice(TOP_PASSAGES)];
    const chosen = new Set<Passage>();
    let size = header.length;
    for (const passage of order) {
      if (chosen.has(passage)) continue;
      if (size + passage.text.length + 1 > share && chosen.size > 0) continue;
      chosen.add(passage);
      size += passage.text.length + 1;
    }
    const text = [...chosen].sort((a, b) => a.position - b.position).map((passage) => passage.text);
    return `${header}\n${text.join(" ")}`;
  });
}
