import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../scripts/eval/args";
import { loadDatasets, parseHotpotFile } from "../../scripts/eval/dataset";
import { convertRecords, formatHotpotFile } from "../../scripts/eval/formats/convert-records";
import { fromIrcotPrompt, isIrcotPrompt } from "../../scripts/eval/formats/ircot-prompt";
import { readRecords } from "../../scripts/eval/formats/read-records";
import { seededSample } from "../../scripts/eval/formats/seeded-sample";

/** The datasets of `npm run eval`: converting MuSiQue and 2Wiki, sampling, loading and pooling. */

const musique = {
  id: "2hop__6063_1",
  question: "What is the main tool against organized crime used by the agency Dr. T.R.M. Howard criticized?",
  answer: "RICO",
  answer_aliases: ["RICO", "Racketeer Influenced and Corrupt Organizations Act"],
  answerable: true,
  paragraphs: [
    { idx: 0, title: "Federal Bureau of Investigation", paragraph_text: "The FBI's chief tool against organized crime is the RICO Act.", is_supporting: true },
    { idx: 1, title: "Lorenzo Tomatis", paragraph_text: "Lorenzo Tomatis was an Italian physician.", is_supporting: false },
    {
      idx: 2,
      title: "Federal Bureau of Investigation",
      paragraph_text: "In 1956 Hoover denounced Dr. T.R.M. Howard, who had criticized FBI inaction.",
      is_supporting: true,
    },
  ],
};

describe("converting native formats to the HotpotQA format", () => {
  it("turns a MuSiQue record's paragraphs into context, its supporting paragraphs into supporting facts", () => {
    const { questions, unanswerable } = convertRecords([musique], "musique.jsonl");
    expect(unanswerable).toBe(0);
    expect(questions).toEqual([
      {
        _id: "2hop__6063_1",
        question: musique.question,
        answer: "RICO",
        // The alias equal to the answer adds nothing.
        answer_aliases: ["Racketeer Influenced and Corrupt Organizations Act"],
        // Two paragraphs of one article are one context entry, the second after a paragraph break.
        supporting_facts: [
          ["Federal Bureau of Investigation", 0],
          ["Federal Bureau of Investigation", 1],
        ],
        context: [
          [
            "Federal Bureau of Investigation",
            [
              "The FBI's chief tool against organized crime is the RICO Act.",
              "\n\nIn 1956 Hoover denounced Dr. T.R.M. Howard, who had criticized FBI inaction.",
            ],
          ],
          ["Lorenzo Tomatis", ["Lorenzo Tomatis was an Italian physician."]],
        ],
      },
    ]);
  });

  it("leaves out MuSiQue-Full's unanswerable questions", () => {
    const { questions, unanswerable } = convertRecords([musique, { ...musique, id: "2hop__6063_1x", answerable: false }], "full.jsonl");
    expect(questions.map((q) => q._id)).toEqual(["2hop__6063_1"]);
    expect(unanswerable).toBe(1);
  });

  it("reads 2Wiki's native pairs and the Hugging Face columns alike", () => {
    const native = {
      _id: "a1",
      type: "comparison",
      question: "Who was born first, A or B?",
      answer: "A",
      context: [
        ["A", ["A was born in 1900."]],
        ["B", ["B was born in 1950."]],
      ],
      supporting_facts: [
        ["A", 0],
        ["B", 0],
      ],
      evidences: [["A", "date of birth", "1900"]],
    };
    const columns = {
      id: "a1",
      type: "comparison",
      question: native.question,
      answer: "A",
      context: { title: ["A", "B"], sentences: [["A was born in 1900."], ["B was born in 1950."]] },
      supporting_facts: { title: ["A", "B"], sent_id: [0, 0] },
    };
    const expected = {
      _id: "a1",
      question: native.question,
      answer: "A",
      type: "comparison",
      supporting_facts: [
        ["A", 0],
        ["B", 0],
      ],
      context: native.context,
    };
    expect(convertRecords([native], "dev.json").questions).toEqual([expected]);
    expect(convertRecords([columns], "hf.json").questions).toEqual([expected]);
  });

  it("refuses a record of no known format", () => {
    expect(() => convertRecords([{ question: "q" }], "odd.json")).toThrow(/record 0 is neither MuSiQue/);
  });

  it("reads JSON lines and JSON arrays, and writes a file the loader reads", () => {
    expect(readRecords("a.jsonl", '{"a":1}\n\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(readRecords("a.json", ' [{"a":1}]')).toEqual([{ a: 1 }]);
    const written = formatHotpotFile(convertRecords([musique], "m.jsonl").questions);
    expect(parseHotpotFile("out.json", written)[0]!.answer_aliases).toEqual(["Racketeer Influenced and Corrupt Organizations Act"]);
  });

  it("reads IRCoT's few-shot prompt files: each question's titled paragraphs, question and answer, no supporting facts", () => {
    const prompt = [
      '# METADATA: {"qid": "5a7bbc50554299042af8f7d0"}',
      "Wikipedia Title: The Phantom Hour",
      "The Phantom Hour is a 2016 short film directed by Brian Patrick Butler.",
      "",
      "Wikipedia Title: Nosferatu",
      "Nosferatu is a 1922 silent film directed by F. W. Murnau.",
      "",
      "Q: What film directed by Brian Patrick Butler was inspired by a film directed by F.W. Murnau?",
      "A: The Phantom Hour",
      "",
      "",
      '# METADATA: {"qid": "2hop__782642_52667"}',
      "Wikipedia Title: Kotri Junction railway station",
      "The first railway line between Karachi and Kotri was constructed in April 1858.",
      "",
      "Q: When was the first railway line constructed between Kotri and Karachi?",
      "A: April 1858",
    ].join("\n");
    expect(isIrcotPrompt(prompt)).toBe(true);
    expect(isIrcotPrompt('[{"_id": "x"}]')).toBe(false);
    const [film, railway] = fromIrcotPrompt("prompt.txt", prompt);
    expect(film).toEqual({
      _id: "5a7bbc50554299042af8f7d0",
      question: "What film directed by Brian Patrick Butler was inspired by a film directed by F.W. Murnau?",
      answer: "The Phantom Hour",
      answer_aliases: [],
      supporting_facts: [],
      context: [
        ["The Phantom Hour", ["The Phantom Hour is a 2016 short film directed by Brian Patrick Butler."]],
        ["Nosferatu", ["Nosferatu is a 1922 silent film directed by F. W. Murnau."]],
      ],
    });
    expect(railway).toMatchObject({ _id: "2hop__782642_52667", answer: "April 1858" });
    expect(parseHotpotFile("out.json", formatHotpotFile([film!, railway!]))).toHaveLength(2);
    expect(() => fromIrcotPrompt("bad.txt", '# METADATA: {"qid": "x"}\nWikipedia Title: A\nText.\n')).toThrow(/lacks a qid/);
  });

  it("refuses answer aliases that are not strings", () => {
    const bad = JSON.stringify([{ _id: "x", question: "q", answer: "a", answer_aliases: [1], supporting_facts: [], context: [] }]);
    expect(() => parseHotpotFile("bad.json", bad)).toThrow(/answer_aliases/);
  });
});

describe("seeded samples", () => {
  const items = Array.from({ length: 100 }, (_, index) => index);

  it("picks the same items for the same seed, in their original order", () => {
    const sample = seededSample(items, 10, 25);
    expect(sample).toEqual(seededSample(items, 10, 25));
    expect(sample).toHaveLength(10);
    expect(new Set(sample).size).toBe(10);
    expect(sample).toEqual([...sample].sort((a, b) => a - b));
    expect(seededSample(items, 10, 26)).not.toEqual(sample);
  });

  it("takes everything when asked for more than there is", () => {
    expect(seededSample([3, 1, 2], 5, 1)).toEqual([3, 1, 2]);
  });
});

describe("loading: aliases, hops, and one document per title holding every question's paragraphs", () => {
  const dir = mkdtempSync(join(tmpdir(), "eval-datasets-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const first = join(dir, "musique.json");
  const second = join(dir, "other.json");
  writeFileSync(first, formatHotpotFile(convertRecords([musique], "m").questions));
  writeFileSync(
    second,
    JSON.stringify([
      {
        _id: "hotpot-format-1",
        question: "Which agency did Hoover lead?",
        answer: "FBI",
        type: "bridge",
        supporting_facts: [
          ["Federal Bureau of Investigation", 0],
          ["J. Edgar Hoover", 0],
        ],
        context: [
          ["Federal Bureau of Investigation", ["The FBI is the domestic intelligence and security service of the United States."]],
          ["J. Edgar Hoover", ["Hoover was the first Director of the FBI."]],
        ],
      },
    ]),
  );
  const data = loadDatasets([first, second]);

  it("keeps aliases and counts hops per question", () => {
    expect(data.questions.map((q) => [q.id, q.hops, q.aliases])).toEqual([
      ["2hop__6063_1", 2, ["Racketeer Influenced and Corrupt Organizations Act"]],
      ["hotpot-format-1", 2, []],
    ]);
    expect(data.questions.map((q) => q.type)).toEqual(["untyped", "bridge"]);
  });

  it("joins a title's different paragraphs from both files into its document", () => {
    const fbi = data.corpus.find((doc) => doc.title === "Federal Bureau of Investigation")!;
    expect(fbi.text.split("\n\n")).toEqual([
      "The FBI's chief tool against organized crime is the RICO Act.",
      "In 1956 Hoover denounced Dr. T.R.M. Howard, who had criticized FBI inaction.",
      "The FBI is the domestic intelligence and security service of the United States.",
    ]);
    expect(data.joinedTitles).toEqual(["Federal Bureau of Investigation"]);
    expect(data.corpus).toHaveLength(3);
  });
});

describe("options", () => {
  it("runs several modes in turn with --mode standard,pro and keeps --mode X", () => {
    expect(parseArgs(["set.json", "--mode", "standard,pro"]).modes).toEqual(["standard", "pro"]);
    expect(parseArgs(["set.json", "--mode=lite"]).modes).toEqual(["lite"]);
    expect(parseArgs(["set.json"]).modes).toEqual(["standard"]);
    expect(() => parseArgs(["set.json", "--mode", "standard,max"])).toThrow(UsageError);
  });

  it("scores the answer field unless --answer-from opening", () => {
    expect(parseArgs(["set.json"]).answerFrom).toBe("field");
    expect(parseArgs(["set.json", "--answer-from", "opening"]).answerFrom).toBe("opening");
    expect(() => parseArgs(["set.json", "--answer-from", "brief"])).toThrow(UsageError);
  });
});
