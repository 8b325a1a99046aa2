/**
 * 2WikiMultihopQA's native records (train.json / dev.json: `context` as [title, sentences] pairs,
 * `supporting_facts` as [title, sentence index] pairs, plus `evidences` triples), and the
 * Hugging Face shape of it and of HotpotQA (`context: {title: [], sentences: [[]]}`,
 * `supporting_facts: {title: [], sent_id: []}`), as HotpotQA-format questions.
 */
import type { HotpotQuestion } from "../dataset";
import { hotpotContext } from "./context";

type Pairs<T> = [string, T][];
interface Columns {
  title: string[];
}

export interface TwoWikiRecord {
  _id?: string;
  id?: string;
  question: string;
  answer: string;
  type?: string;
  level?: string;
  context: Pairs<string[]> | (Columns & { sentences: string[][] });
  supporting_facts: Pairs<number> | (Columns & { sent_id: number[] });
}

export function isTwoWikiRecord(value: unknown): value is TwoWikiRecord {
  const record = value as TwoWikiRecord;
  return (
    typeof record === "object" &&
    record !== null &&
    typeof record.question === "string" &&
    typeof record.answer === "string" &&
    typeof record.context === "object" &&
    record.context !== null &&
    typeof record.supporting_facts === "object" &&
    record.supporting_facts !== null
  );
}

/** [title, value] pairs from either shape: pairs already, or parallel `title` and `column` lists. */
function pairs<T, K extends string>(value: Pairs<T> | (Columns & Record<K, T[]>), column: K): Pairs<T> {
  if (Array.isArray(value)) return value;
  const values = (value as Record<K, T[]>)[column];
  return value.title.map((title, index): [string, T] => [title, values[index]!]);
}

export function fromTwoWiki(record: TwoWikiRecord, fallbackId: string): HotpotQuestion {
  const context = pairs(record.context, "sentences");
  const supported = new Set(pairs(record.supporting_facts, "sent_id").map(([title]) => title));
  // Paragraphs are kept as their sentences (sentence indexes of supporting facts stay valid);
  // a title met twice is rare in 2Wiki, and then its paragraphs are joined as MuSiQue's are.
  const titles = context.map(([title]) => title);
  const repeated = titles.some((title, index) => titles.indexOf(title) !== index);
  const question: HotpotQuestion = {
    _id: record._id ?? record.id ?? fallbackId,
    question: record.question,
    answer: record.answer,
    ...(record.type ? { type: record.type } : {}),
    ...(record.level ? { level: record.level } : {}),
    supporting_facts: pairs(record.supporting_facts, "sent_id"),
    context,
  };
  if (!repeated) return question;
  return { ...question, ...hotpotContext(context.map(([title, sentences]) => ({ title, text: sentences.join(""), supporting: supported.has(title) }))) };
}
