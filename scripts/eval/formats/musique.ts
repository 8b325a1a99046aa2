/**
 * MuSiQue's native records (musique_ans_v1.0_*.jsonl, musique_full_v1.0_*.jsonl) as HotpotQA-format
 * questions: the supporting paragraphs become the supporting facts, the answer aliases are kept,
 * and the id too (its 2hop / 3hop1 / 4hop3 prefix is how the evaluation counts hops).
 */
import type { HotpotQuestion } from "../dataset";
import { hotpotContext } from "./context";

export interface MusiqueRecord {
  id: string;
  question: string;
  answer: string;
  answer_aliases?: string[];
  /** False in MuSiQue-Full's contrast questions, whose supporting paragraph of some hop was removed. */
  answerable?: boolean;
  paragraphs: { idx?: number; title: string; paragraph_text: string; is_supporting: boolean }[];
}

export function isMusiqueRecord(value: unknown): value is MusiqueRecord {
  const record = value as MusiqueRecord;
  return (
    typeof record === "object" &&
    record !== null &&
    typeof record.id === "string" &&
    typeof record.question === "string" &&
    typeof record.answer === "string" &&
    Array.isArray(record.paragraphs) &&
    record.paragraphs.every((p) => typeof p?.title === "string" && typeof p.paragraph_text === "string" && typeof p.is_supporting === "boolean")
  );
}

export function fromMusique(record: MusiqueRecord): HotpotQuestion {
  const { context, supporting_facts } = hotpotContext(record.paragraphs.map((p) => ({ title: p.title, text: p.paragraph_text, supporting: p.is_supporting })));
  // MuSiQue lists the answer itself among its aliases now and then; an alias equal to the answer adds nothing.
  const aliases = [...new Set(record.answer_aliases ?? [])].filter((alias) => alias.trim() && alias !== record.answer);
  return { _id: record.id, question: record.question, answer: record.answer, answer_aliases: aliases, supporting_facts, context };
}
