/**
 * HotpotQA-format datasets: loading several files, the gold documents of each question and the
 * pooled corpus built from every context paragraph of every question of every file.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { hopCount } from "./hops";

export interface HotpotQuestion {
  _id: string;
  question: string;
  answer: string;
  /** Other accepted forms of the answer (MuSiQue gives them; HotpotQA does not). */
  answer_aliases?: string[];
  type?: string;
  level?: string;
  supporting_facts: [string, number][];
  context: [string, string[]][];
}

/** One question as the evaluation asks it. */
export interface EvalQuestion {
  id: string;
  /** The dataset file's name (no directory). */
  file: string;
  type: string;
  /** MuSiQue's hop count from its id, else the number of distinct supporting-fact titles. */
  hops: number;
  question: string;
  answer: string;
  aliases: string[];
  /** Titles of the supporting facts, and their corpus urls. */
  goldTitles: string[];
  goldUrls: string[];
  /** The question's own context paragraphs, as corpus documents (the distractor setting). */
  documents: CorpusDocument[];
}

export interface CorpusDocument {
  url: string;
  title: string;
  text: string;
  domain: string;
}

export const WIKI_DOMAIN = "en.wikipedia.org";

/** Paragraphs of one document are separated by a blank line (MuSiQue has several per title). */
export const PARAGRAPH_BREAK = "\n\n";

/** https://en.wikipedia.org/wiki/<Title_with_underscores>, percent-encoded but for , ( and ). */
export function wikiUrl(title: string): string {
  const encoded = encodeURIComponent(title.replace(/ /g, "_")).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")");
  return `https://${WIKI_DOMAIN}/wiki/${encoded}`;
}

function isHotpotQuestion(value: unknown): value is HotpotQuestion {
  const q = value as HotpotQuestion;
  return (
    typeof q === "object" &&
    q !== null &&
    typeof q.question === "string" &&
    typeof q.answer === "string" &&
    Array.isArray(q.supporting_facts) &&
    Array.isArray(q.context) &&
    (q.answer_aliases === undefined || (Array.isArray(q.answer_aliases) && q.answer_aliases.every((alias) => typeof alias === "string")))
  );
}

export function parseHotpotFile(path: string, text: string): HotpotQuestion[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: cannot read HotpotQA JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${path}: expected a JSON array of HotpotQA questions`);
  parsed.forEach((item, index) => {
    if (!isHotpotQuestion(item))
      throw new Error(`${path}: item ${index} lacks question / answer / supporting_facts / context (or has answer_aliases that are not strings)`);
  });
  return parsed as HotpotQuestion[];
}

/**
 * The paragraphs of every question under one title, joined into one document. A paragraph met
 * again is kept once; one that another contains is dropped. So a pooled corpus still holds each
 * question's own paragraphs: MuSiQue gives several paragraphs of one article, and two datasets
 * may hold different versions of the same page.
 */
class TitleParagraphs {
  private readonly byTitle = new Map<string, string[]>();

  add(title: string, text: string): void {
    const known = this.byTitle.get(title) ?? [];
    for (const paragraph of text
      .split(PARAGRAPH_BREAK)
      .map((p) => p.trim())
      .filter(Boolean)) {
      if (known.some((existing) => existing.includes(paragraph))) continue;
      const kept = known.filter((existing) => !paragraph.includes(existing));
      known.splice(0, known.length, ...kept, paragraph);
    }
    this.byTitle.set(title, known);
  }

  /** Titles whose paragraphs differ across questions (or within one) and were joined. */
  joined(): string[] {
    return [...this.byTitle].filter(([, paragraphs]) => paragraphs.length > 1).map(([title]) => title);
  }

  documents(): CorpusDocument[] {
    return [...this.byTitle].map(([title, paragraphs]) => ({ url: wikiUrl(title), title, text: paragraphs.join(PARAGRAPH_BREAK), domain: WIKI_DOMAIN }));
  }
}

export interface LoadedDatasets {
  /** The questions to ask: the first `limit` of each file (all without a limit). */
  questions: EvalQuestion[];
  /** One document per title from every question of every file (limited or not). */
  corpus: CorpusDocument[];
  /** Titles with several different paragraphs, joined into one document. */
  joinedTitles: string[];
  /** Paragraphs with no text, which the corpus endpoint would refuse. */
  emptyTitles: string[];
}

export function loadDatasets(paths: string[], limit?: number): LoadedDatasets {
  const corpus = new TitleParagraphs();
  const empty = new Set<string>();
  const questions: EvalQuestion[] = [];
  const fileNames = paths.map((path) => basename(path));
  for (const [fileIndex, path] of paths.entries()) {
    // Two files with the same name in different folders stay apart in the per-file groups.
    const file = fileNames.indexOf(fileNames[fileIndex]!) === fileIndex ? fileNames[fileIndex]! : path;
    const items = parseHotpotFile(path, readFileSync(path, "utf8"));
    for (const [index, item] of items.entries()) {
      const documents: CorpusDocument[] = [];
      for (const [title, sentences] of item.context) {
        const text = sentences.join("").trim();
        if (!text) {
          empty.add(title);
          continue;
        }
        documents.push({ url: wikiUrl(title), title, text, domain: WIKI_DOMAIN });
        corpus.add(title, text);
      }
      if (limit !== undefined && index >= limit) continue;
      const goldTitles = [...new Set(item.supporting_facts.map(([title]) => title))];
      const id = item._id ?? `${file}#${index}`;
      questions.push({
        id,
        file,
        type: item.type ?? "untyped",
        hops: hopCount(id, goldTitles),
        question: item.question,
        answer: item.answer,
        aliases: item.answer_aliases ?? [],
        goldTitles,
        goldUrls: goldTitles.map(wikiUrl),
        documents,
      });
    }
  }
  return { questions, corpus: corpus.documents(), joinedTitles: corpus.joined(), emptyTitles: [...empty] };
}
