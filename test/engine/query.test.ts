import { describe, expect, it } from "vitest";
import { analyzeQuestion, questionTopic, capitalisedEntities, quotedPhrases } from "../../src/research/engine/question";
import { normalizeAnswer, sentences, stem, terms } from "../../src/research/engine/language";

describe("query analysis", () => {
  it("finds capitalised entities, splitting two conjoined names but keeping titles with 'and'", () => {
    expect(analyzeQuestion("Were Scott Derrickson and Ed Wood of the same nationality?").entities).toEqual(["Scott Derrickson", "Ed Wood"]);
    expect(analyzeQuestion("What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?").entities).toEqual([
      "Corliss Archer",
      "Kiss and Tell",
    ]);
  });

  it("keeps quoted phrases as phrases and entities", () => {
    const analysis = analyzeQuestion('The director of the romantic comedy "Big Stone Gap" is based in what New York city?');
    expect(analysis.phrases).toEqual(["Big Stone Gap"]);
    expect(analysis.entities).toContain("Big Stone Gap");
    expect(quotedPhrases('“curly quotes” and "straight ones"')).toEqual(["curly quotes", "straight ones"]);
  });

  it("does not take the question word, initials or punctuation-separated places as one name", () => {
    expect(capitalisedEntities("Where is Lawrence, Kansas located?")).toEqual(["Lawrence", "Kansas"]);
    expect(capitalisedEntities("Roger O. Egeberg was a physician.")).toEqual(["Roger O Egeberg"]);
    expect(capitalisedEntities("In 1945 American films starred Shirley Temple.", { leadingNumbers: false })).toEqual(["Shirley Temple"]);
  });

  it("classifies yes/no, choice and open questions", () => {
    expect(analyzeQuestion("Are Local H and For Against both from the United States?").kind).toBe("yes_no");
    const choice = analyzeQuestion("Who is older, Annie Morton or Terry Richardson?");
    expect(choice.kind).toBe("choice");
    expect(choice.options).toEqual(["Annie Morton", "Terry Richardson"]);
    expect(choice.focusTerms).toContain("older");
    expect(analyzeQuestion("What year did the band perform?").kind).toBe("open");
    // A pick written without the comma before its options is still a pick, when the options are names.
    const unmarked = analyzeQuestion("Which band was formed first The Exies or Circus Diablo ?");
    expect(unmarked.kind).toBe("choice");
    expect(unmarked.options).toEqual(["The Exies", "Circus Diablo"]);
    expect(analyzeQuestion("Which came first the forming of The Dandy Warhols or the birth of Robert Young?").kind).toBe("open");
    // Options after "out of" or "between", joined by "and".
    const among = analyzeQuestion("Who was born first out of Arthur Schnell and Julien Carde?");
    expect(among.kind).toBe("choice");
    expect(among.options).toEqual(["Arthur Schnell", "Julien Carde"]);
    expect(among.comparison).toMatchObject({ fact: "birth_date", pick: "earliest" });
    // The options after a question mark or a colon, or with a clause describing the first, are a pick too.
    const afterMark = analyzeQuestion("Who was born first? Jan de Bont or Raoul Walsh?");
    expect(afterMark.kind).toBe("choice");
    expect(afterMark.options).toEqual(["Jan de Bont", "Raoul Walsh"]);
    expect(afterMark.comparison).toMatchObject({ fact: "birth_date", pick: "earliest" });
    expect(analyzeQuestion('Which of the following had a debut album entitled "We Have an Emergency": Hot Hot Heat or The Operation M.D.?').options).toEqual([
      "Hot Hot Heat",
      "The Operation M.D.",
    ]);
    const described = analyzeQuestion("Who was born first, James D Grant, who uses the pen name of Lee Child, or Bernhard Schlink?");
    expect(described.options).toEqual(["James D Grant", "Bernhard Schlink"]);
    expect(described.comparison?.sides.map((side) => side.name)).toEqual(["James D Grant", "Bernhard Schlink"]);
    // Options that are no names stay an open question.
    expect(analyzeQuestion("What came first? the war or the treaty?").kind).toBe("open");
    // "What kind of X" asks a class, which no name span says; "what type of plane" is answered by a model's name.
    expect(analyzeQuestion("What kind of university did the author of Alexander attend?").expects).toBe("description");
    expect(analyzeQuestion("What type of plane dropped the bomb on Kure?").expects).toBe("entity");
    // "Who" asked last: the maker of a thing is as often a company as a person; anyone else a person.
    expect(analyzeQuestion("Spring Tide is the debut album of a boy group that was formed by who?").expects).toBe("entity");
    expect(analyzeQuestion("Kiss and Tell starred an actress who married whom?").expects).toBe("person");
  });

  it("takes periods as constraints and framing subjects as speakers, not topic words", () => {
    const analysis = analyzeQuestion("How did presidents describe tariffs in the 19th century?");
    expect(analysis.period).toEqual({ from: 1801, to: 1900 });
    expect(analysis.terms).toEqual(["president", "tariff"]);
    expect(analysis.speakerTerms).toEqual(["president"]);
    expect(analysis.entities).toEqual([]);
    expect(analyzeQuestion("What happened in the 1890s?").period).toEqual({ from: 1890, to: 1899 });
  });

  it("reads initials written with full stops as the initials ('F.D.R.' is FDR), none of their letters a term of the topic", () => {
    const dotted = analyzeQuestion("What did F.D.R. say about the four freedoms?");
    expect(dotted.entities).toEqual(["FDR"]);
    expect(dotted.focusTerms).toEqual(analyzeQuestion("What did FDR say about the four freedoms?").focusTerms);
    expect(analyzeQuestion("What did L.B.J. say about poverty?").entities).toEqual(["LBJ"]);
    // Numbers, which are no entities, stay terms of the question.
    expect(analyzeQuestion("The team competes in a conference formerly known as what from 1988 to 1996?").focusTerms).toContain("1988");
    // "U.S." before the asked noun is no name of a person: the question still asks for one.
    expect(analyzeQuestion("Which U.S. president declared an unconditional war on poverty?").expects).toBe("person");
  });

  it("takes the year of a saying asked about as its period, and a year elsewhere as a fact to match", () => {
    const vietnam = analyzeQuestion("What did Nixon say about Vietnam in 1970?");
    expect(vietnam.period).toEqual({ from: 1970, to: 1970 });
    expect(vietnam.terms).not.toContain("1970");
    expect(questionTopic(vietnam.question)).toBe("Vietnam");
    expect(analyzeQuestion("What did Obama say about health care in his 2010 address?").period).toEqual({ from: 2010, to: 2010 });
    expect(questionTopic("What did Obama say about health care in his 2010 address?")).toBe("health care");
    const before = analyzeQuestion("What did Lincoln say in 1862 about emancipation?");
    expect(before.period).toEqual({ from: 1862, to: 1862 });
    expect(before.expects).toBe("description");
    expect(questionTopic(before.question)).toBe("emancipation");
    // The speech named with its year ("in his 2015 State of the Union") is when it was said, not a name asked about.
    const named = analyzeQuestion("What did Obama say in his 2015 State of the Union about cybersecurity?");
    expect(named).toMatchObject({ period: { from: 2015, to: 2015 }, expects: "description", entities: ["Obama"] });
    // No topic said: the year is what the title was written in, a fact of the answer.
    expect(analyzeQuestion("What did Tolkien write in 1937?").period).toBeNull();
    expect(analyzeQuestion("Which film released in 1970 starred Ali MacGraw?").period).toBeNull();
  });

  it("drops stopwords and question words from terms, and stems lightly", () => {
    expect(terms("The tariffs were described as abominations")).toEqual(["tariff", "describ", "abomination"]);
    expect(stem("studies")).toBe("study");
    expect(stem("1990s")).toBe("1990s");
  });
});

describe("text", () => {
  it("splits sentences without breaking abbreviations or initials", () => {
    expect(sentences("Roger O. Egeberg was a U.S. official. He served under Dr. Smith in 1969. It cost 3.5 million.")).toEqual([
      "Roger O. Egeberg was a U.S. official.",
      "He served under Dr. Smith in 1969.",
      "It cost 3.5 million.",
    ]);
    // The plural of "Mr." too: Jefferson's "The expedition of Messrs. Lewis and Clarke …" is one sentence.
    expect(sentences("The expedition of Messrs. Lewis and Clarke has had all the success expected. Mme. Curie spoke.")).toEqual([
      "The expedition of Messrs. Lewis and Clarke has had all the success expected.",
      "Mme. Curie spoke.",
    ]);
    // A full stop a transcript glued to the next sentence still ends one; "Ph.D" and "3.14" do not.
    expect(sentences("buy American and hire American.Tonight I am also calling on this Congress. He got a Ph.D at MIT, where Pi is 3.14.")).toEqual([
      "buy American and hire American.",
      "Tonight I am also calling on this Congress.",
      "He got a Ph.D at MIT, where Pi is 3.14.",
    ]);
  });

  it("normalises answers like HotpotQA", () => {
    expect(normalizeAnswer("The North Atlantic Conference")).toBe("north atlantic conference");
    expect(normalizeAnswer("3,677 seated")).toBe("3677 seated");
    expect(normalizeAnswer("Pedro Rodríguez")).toBe("pedro rodriguez");
  });
});
