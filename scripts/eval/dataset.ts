/**
 * HotpotQA-format datasets: loading several files, the gold documents of each question and the
 * pooled corpus built from every context paragraph of every question of every file.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

export interface HotpotQuestion {
  _id: string;
  question: string;
  answer: string;
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
  question: string;
  answer: string;
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

/** https://en.wikipedia.org/wiki/<Title_with_underscores>, percent-encoded but for , ( and ). */
export function wikiUrl(title: string): string {
  const encoded = encodeURIComponent(title.replace(/ /g, "_")).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")");
  return `https://${WIKI_DOMAIN}/wiki/${encoded}`;
}

function isHotpotQuestion(value: unknown): value is HotpotQuestion {
  const q = value as HotpotQuestion;
  return (
    typeof q === "object" && q !== null &&
    typeof q.question === "string" && typeof q.answer === "string" &&
    Array.isArray(q.supporting_facts) && Array.isArray(q.context)
  );
}

function readFile(path: string): HotpotQuestion[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path}: cannot read HotpotQA JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${path}: expected a JSON array of HotpotQA questions`);
  parsed.forEach((item, index) => {
    if (!isHotpotQuestion(item)) throw new Error(`${path}: item ${index} lacks question / answer / supporting_facts / context`);
  });
  return parsed as HotpotQuestion[];
}

export interface LoadedDatasets {
  /** The questions to ask: the first `limit` of each file (all without a limit). */
  questions: EvalQuestion[];
  /** One document per title from every question of every file (limited or not). */
  corpus: CorpusDocument[];
  /** Titles met with different texts; the longest text is kept. */
  conflictingTitles: string[];
  /** Paragraphs with no text, which the corpus endpoint would refuse. */
  emptyTitles: string[];
}

export function loadDatasets(paths: string[], limit?: number): LoadedDatasets {
  const corpus = new Map<string, CorpusDocument>();
  const conflicting = new Set<string>();
  const empty = new Set<string>();
  const questions: EvalQuestion[] = [];
  const fileNames = paths.map((path) => basename(path));
  for (const [fileIndex, path] of paths.entries()) {
    // Two files with the same name in different folders stay apart in the per-file groups.
    const file = fileNames.indexOf(fileNames[fileIndex]!) === fileIndex ? fileNames[fileIndex]! : path;
    const items = readFile(path);
    for (const [index, item] of items.entries()) {
      const documents: CorpusDocument[] = [];
      for (const [title, sentences] of item.context) {
        const text = sentences.join("").trim();
        if (!text) {
          empty.add(title);
          continue;
        }
        const document = { url: wikiUrl(title), title, text, domain: WIKI_DOMAIN };
        documents.push(document);
        const known = corpus.get(title);
        if (known && known.text !== text) conflicting.add(title);
        if (!known || text.length > known.text.length) corpus.set(title, document);
      }
      if (limit !== undefined && index >= limit) continue;
      const goldTitles = [...new Set(item.supporting_facts.map(([title]) => title))];
      questions.push({
        id: item._id ?? `${file}#${index}`,
        file,
        type: item.type ?? "untyped",
        question: item.question,
        answer: item.answer,
        goldTitles,
        goldUrls: goldTitles.map(wikiUrl),
        documents,
      });
    }
  }
  return { questions, corpus: [...corpus.values()], conflictingTitles: [...conflicting], emptyTitles: [...empty] };
}
