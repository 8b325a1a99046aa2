import { describe, expect, it } from "vitest";
import { runResearch } from "../../src/research/engine";
import { citationProblems } from "../../src/research/engine/write";
import { analyzeEvidence, Evidence, textNamesTitle, titleRefersTo } from "../../src/research/engine/evidence";
import { directAnswer } from "../../src/research/engine/answer/direct";
import { analyzeQuestion } from "../../src/research/engine/question";
import { decodeEntities, sentenceSpans, sentences } from "../../src/research/engine/language";
import { budgetsForMode } from "../../src/research/pricing";
import { type FakeDoc, memoryProviders, WIKI } from "./helpers";

describe("question analysis on the shapes that used to fail", () => {
  it("splits the two subjects of a comparison even when each is one word", () => {
    expect(analyzeQuestion("Are Ferocactus and Silene both types of plant?").entities).toEqual(["Ferocactus", "Silene"]);
    // Outside a comparison a title with "and" stays whole.
    expect(analyzeQuestion("Who starred in Kiss and Tell?").entities).toEqual(["Kiss and Tell"]);
  });

  it("keeps names with abbreviations and initials whole, and decodes HTML entities", () => {
    expect(analyzeQuestion("Which game did Ken St. Andre design?").entities).toEqual(["Ken St Andre"]);
    expect(analyzeQuestion("Who created Tunnels &amp; Trolls?").question).toBe("Who created Tunnels & Trolls?");
    expect(decodeEntities("Simon &amp; Garfunkel&#39;s &#x2014; &quot;hits&quot;")).toBe('Simon & Garfunkel\'s — "hits"');
  });

  it("knows what kind of answer is asked, lower case or not", () => {
    expect(analyzeQuestion("where was the director of the wolf of wall street born").expects).toBe("place");
    expect(analyzeQuestion("In which year did the band form?").expects).toBe("year");
    expect(analyzeQuestion("How many people can the arena seat?").expects).toBe("number");
    expect(analyzeQuestion("Who founded the company?").expects).toBe("person");
    expect(analyzeQuestion("When did Vivaldi die?").expects).toBe("date");
    expect(analyzeQuestion("Were A and B both born in Moscow?").expects).toBe("yes_no");
    expect(analyzeQuestion("Which presidents argued for free silver?").stance?.opposite).toContain("against");
    expect(analyzeQuestion("What is the date of birth of the author of novel Dracula?").expects).toBe("date");
    // Questions that ask for an account, not a name (a span would be restated as nonsense).
    expect(analyzeQuestion("What did the McKinley Tariff do?").expects).toBe("description");
    expect(analyzeQuestion("What happened at the Battle of the Bulge?").expects).toBe("description");
    expect(analyzeQuestion("What was the effect of the Embargo Act?").expects).toBe("description");
    expect(analyzeQuestion("What did presidents say about tariffs in the 1890s?").expects).toBe("description");
    expect(analyzeQuestion("What did Lincoln think of the Union?").expects).toBe("description");
    expect(analyzeQuestion("What did the band record in 1975?").expects).toBe("entity");
    expect(analyzeQuestion("What did Tolkien write in 1937?").expects).toBe("entity");
    // A follow-up asked as the next turn: the opening conjunction is not part of the question.
    expect(analyzeQuestion("And what did Lincoln think of the Union?")).toMatchObject({
      expects: "description",
      question: "What did Lincoln think of the Union?",
    });
    expect(analyzeQuestion("but who founded the company?").expects).toBe("person");
    // The name of an office holder is a person's; the name of an airport is not.
    expect(analyzeQuestion("What is the name of the chief justice of Ghana?").expects).toBe("person");
    expect(analyzeQuestion("What is the name of the airport in Wilmington?").expects).toBe("entity");
    expect(analyzeQuestion("And Then There Were None: who wrote it?").question).toBe("And Then There Were None: who wrote it?");
  });

  it("tells the relations that lead to the answer's page from the one asked", () => {
    expect(analyzeQuestion("Where did the director of film Hell's Kitchen die?").linkTerms).toEqual(["director"]);
    // Right after "who is", the relation is what is asked.
    expect(analyzeQuestion("Who is the spouse of the performer of song Yesterday?").linkTerms).toEqual(["performer"]);
    expect(analyzeQuestion("Who was Shirley Temple's husband?").linkTerms).toEqual(["husband"]);
    // "the headquarters of" after "In which prefecture is" is asked; the company that makes it leads there.
    expect(analyzeQuestion("In which prefecture is the headquarters of the company that makes the Prius?").linkTerms).toEqual(["company", "make"]);
    // The verb of a relative clause leads on too, and "which city" asks for the city, not the player.
    expect(analyzeQuestion("In which city was the player who scored twice in the final born?").linkTerms).toEqual(["player", "scor"]);
    expect(analyzeQuestion('The Queen member who wrote "Bohemian Rhapsody" was born on which island?').linkTerms).toEqual(["member", "wrote"]);
    expect(analyzeQuestion("In which year did the brother who financially supported the painter die?").linkTerms).toEqual(["brother", "support"]);
    expect(analyzeQuestion("What is the birth date of the person after whom the capital of Wisconsin is named?").linkTerms).toEqual([
      "capital",
      "person",
      "nam",
    ]);
    // Right after "who was", the relative clause describes what is asked.
    expect(analyzeQuestion("Who was the player who scored twice in the final?").linkTerms).toEqual([]);
    expect(analyzeQuestion("In which prefecture is the headquarters of the company that makes the Prius?").expects).toBe("place");
  });

  it("finds the page a question names in lower case or with a typo", () => {
    const loose = { allowTypos: true };
    expect(textNamesTitle("who painted the mona lisa of leonardo da vinchi", "Leonardo da Vinci", loose)).toBe(true);
    expect(textNamesTitle("who painted the mona lisa of leonardo da vinchi", "Leonardo da Vinci", { allowTypos: false })).toBe(false);
    expect(textNamesTitle("what year was the band that made dark side of the moon formed", "The Dark Side of the Moon", loose)).toBe(false);
    expect(textNamesTitle("what year was the band that made the dark side of the moon formed", "The Dark Side of the Moon", loose)).toBe(true);
    expect(textNamesTitle("Is it old?", "It", loose)).toBe(false);
  });

  it("follows a surname to a person's page, not to a title that ends in the same word", () => {
    expect(titleRefersTo("Alex Ferguson", "Ferguson")).toBe(true);
    expect(titleRefersTo("Tender Is the Night", "Night")).toBe(false);
    // A comma says where a place is: "Ii, Finland" is no person surnamed Finland, nor Finland's page.
    expect(titleRefersTo("Ii, Finland", "Finland")).toBe(false);
    expect(titleRefersTo("Madison, Wisconsin", "Madison")).toBe(true);
  });
});

describe("sentences", () => {
  it("does not cut at circa, saints or initials, and keeps offsets into the original text", () => {
    const text = "James Stanley (c. 1580 – 1642) was an English peer.  Ken St. Andre designed it.\nHeading\nJ. R. R. Tolkien wrote it.";
    expect(sentences(text)).toEqual([
      "James Stanley (c. 1580 – 1642) was an English peer.",
      "Ken St. Andre designed it.",
      "Heading",
      "J. R. R. Tolkien wrote it.",
    ]);
    for (const span of sentenceSpans(text)) expect(text.slice(span.start, span.end)).toBe(span.text);
  });

  it("reads a customer's Markdown: headings are no sentences, list markers are not part of their items, offsets stay exact", () => {
    const text =
      "# Sea otter field notes\n\nSea otters use rocks as anvils.\n- each keeps a favourite rock.\n* Counts rose in spring.\n1. Dives last a minute.\n## Method\nWe counted from the shore. #1 was the largest.";
    expect(sentences(text)).toEqual([
      "Sea otters use rocks as anvils.",
      "each keeps a favourite rock.",
      "Counts rose in spring.",
      "Dives last a minute.",
      "We counted from the shore. #1 was the largest.",
    ]);
    for (const span of sentenceSpans(text)) expect(text.slice(span.start, span.end)).toBe(span.text);
  });
});

/** Researches a question in standard mode over these documents only. */
function askStandard(question: string, docs: FakeDoc[]) {
  return runResearch({ question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true }, { providers: memoryProviders(docs) });
}

/** A compositional question over a corpus where one site holds most pages, plus a long off-topic speech. */
const DOCS: FakeDoc[] = [
  {
    url: WIKI("The Silent Harbor"),
    title: "The Silent Harbor",
    text: "The Silent Harbor is a 1958 French drama film directed by Marguerite Lenoir. It follows a lighthouse keeper on the coast of Brittany. The film won the Prix Louis-Delluc.",
  },
  {
    url: WIKI("Marguerite Lenoir"),
    title: "Marguerite Lenoir",
    text: "Marguerite Lenoir (4 May 1921 – 2 March 1994) was a French film director and screenwriter. She was born in Rouen. Lenoir died in Lyon in 1994, where she had taught at the film school.",
  },
  {
    url: WIKI("Silent Harbor (novel)"),
    title: "Silent Harbor (novel)",
    text: "Silent Harbor is a 2003 crime novel by the American writer Tom Keating. It is set in a fishing town in Maine.",
  },
  {
    url: WIKI("Lenoir (surname)"),
    title: "Lenoir (surname)",
    text: "Lenoir is a French surname. Notable people with the surname include the engineer Étienne Lenoir, who died in La Varenne-Saint-Hilaire.",
  },
  {
    url: WIKI("Harbor"),
    title: "Harbor",
    text: "A harbor is a sheltered body of water where ships may be docked. The largest harbors are in Rotterdam and Shanghai.",
  },
  {
    url: "corpus://sotu.corpus/1902-roosevelt",
    title: "Theodore Roosevelt: State of the Union address, 1902",
    text: Array.from(
      { length: 30 },
      (_, i) =>
        `Our harbors and our film of commerce must be kept open, said the message in part ${i + 1}. The Congress should fund the improvement of every harbor.`,
    ).join(" "),
  },
];

describe("a brief that answers", () => {
  it("follows the hop on a one-site corpus, opens with the answer in its own words, and cites the chain", async () => {
    const result = await askStandard("In which city did the director of The Silent Harbor die?", DOCS);
    const opening = result.brief.split("\n")[0]!;
    expect(opening).toMatch(/^The director of The Silent Harbor is Marguerite Lenoir, who died in Lyon \[\d\]\[\d\]\./);
    expect(result.answer).toMatchObject({ text: "Lyon", confidence: "high" });
    expect(result.sources.map((source) => source.title)).toEqual(expect.arrayContaining(["The Silent Harbor", "Marguerite Lenoir"]));
    expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
    // Nothing from the unrelated speech, and no source title repeated in the bullets.
    expect(result.brief).not.toContain("Congress");
    for (const line of result.brief.split("\n").filter((line) => line.startsWith("- "))) expect(line).not.toMatch(/^- (The Silent Harbor|Marguerite Lenoir):/);
    // Every claim's quote is the exact text of its source at its offsets.
    for (const citation of result.citations) {
      const doc = DOCS.find((entry) => entry.url === result.sources[citation.source]!.url)!;
      expect(doc.text.slice(citation.start, citation.end)).toBe(citation.quote);
    }
    expect(result.citations.some((citation) => citation.quote.includes("died in Lyon"))).toBe(true);
    // Summaries say what each source contributed.
    expect(result.sources.find((source) => source.title === "Marguerite Lenoir")!.summary).toContain("Lyon");
  });

  it("does not state the bridge as the answer when the page it leads to was not read", async () => {
    const withoutHop = DOCS.filter((doc) => doc.title !== "Marguerite Lenoir");
    const result = await askStandard("In which city did the director of The Silent Harbor die?", withoutHop);
    const opening = result.brief.split("\n")[0]!;
    expect(opening).not.toMatch(/died in Marguerite Lenoir/);
    // What was established (the director) and what is missing, with no answer stated.
    expect(opening).toMatch(/^The director of The Silent Harbor is Marguerite Lenoir; no source read states where Marguerite Lenoir died \[\d\]\./);
    expect(result.answer).toBeNull();
    expect(opening).toContain("directed by Marguerite Lenoir");
  });

  it("never states a fact of an earlier hop for the hop asked (the author's birth date for her mother's)", async () => {
    const docs: FakeDoc[] = [
      { url: WIKI("The Glass Orchard"), title: "The Glass Orchard", text: "The Glass Orchard is an 1852 novel by Thomas Wren. It is set in Hexham." },
      {
        url: WIKI("Thomas Wren"),
        title: "Thomas Wren",
        text: "Thomas Wren (born 3 June 1811) was an English novelist, born in Hexham. He wrote The Glass Orchard after the death of Edward Wren.",
      },
    ];
    const result = await askStandard("What is the date of birth of the mother of the author of The Glass Orchard?", docs);
    expect(result.answer?.text).not.toBe("3 June 1811");
    expect(result.answer).toBeNull();
  });

  it("follows the chain from the named page that leads on, when the question names two", async () => {
    const docs: FakeDoc[] = [
      {
        url: WIKI("Harbor Song (film)"),
        title: "Harbor Song (film)",
        text: "Harbor Song is a 2019 musical film about a band from Brest. The film received mixed reviews.",
      },
      { url: WIKI("Harbor Song"), title: "Harbor Song", text: '"Harbor Song" is a 1974 song written by Jean Morvan. It topped the French charts.' },
      {
        url: WIKI("Jean Morvan"),
        title: "Jean Morvan",
        text: "Jean Morvan (1941 – 2003) was a French singer-songwriter. He was born in Quimper, in Brittany.",
      },
    ];
    const result = await askStandard("The writer of Harbor Song was born in which town?", docs);
    expect(result.brief.split("\n")[0]).toMatch(/^The writer of Harbor Song is Jean Morvan, who was born in Quimper/);
    expect(result.sources.map((source) => source.title)).toEqual(expect.arrayContaining(["Harbor Song", "Jean Morvan"]));
  });

  it("of two people one sentence names, follows the one named beside what the question asks through", async () => {
    const docs: FakeDoc[] = [
      {
        url: WIKI("Northern Lights (1961 film)"),
        title: "Northern Lights (1961 film)",
        text: "Northern Lights is a 1961 Norwegian drama film. The film stars Ola Berg as Captain Henrik Sand, the master of a whaling ship, and Per Lunde as his first mate.",
      },
      { url: WIKI("Ola Berg"), title: "Ola Berg", text: "Ola Berg (1920 – 1988) was a Norwegian actor. He was born in Tromsø." },
      {
        url: WIKI("Per Lunde"),
        title: "Per Lunde",
        text: "Per Lunde (1931 – 2010) was a Norwegian actor and director of the 1961 film festival in Bergen. He was born in Bergen and played in many films.",
      },
      {
        url: WIKI("1964 Nordic Cup final"),
        title: "1964 Nordic Cup final",
        text: "The 1964 Nordic Cup final was played in Oslo. Norway beat Sweden 3–1, with Arne Dahl scoring two goals and Knut Vik adding a third.",
      },
      { url: WIKI("Arne Dahl"), title: "Arne Dahl", text: "Arne Dahl (1940 – 2001) was a Norwegian footballer. He was born in Drammen." },
      {
        url: WIKI("Knut Vik"),
        title: "Knut Vik",
        text: "Knut Vik (born 1942) is a Norwegian former footballer who scored in the 1964 Nordic Cup final. He was born in Hamar.",
      },
    ];
    const ask = (question: string) => askStandard(question, docs);
    // "stars Ola Berg as Captain Henrik Sand ... and Per Lunde as his first mate": Berg played Sand.
    expect((await ask("The actor who played Captain Henrik Sand in the 1961 film Northern Lights was born in which city?")).brief.split("\n")[0]).toMatch(
      /born in Tromsø/,
    );
    // "Arne Dahl scoring two goals and Knut Vik adding a third": Dahl scored twice.
    expect((await ask("In which town was the player who scored two goals in the 1964 Nordic Cup final born?")).brief.split("\n")[0]).toMatch(/born in Drammen/);
  });

  it("follows a third page when the second names it, and reads a person's dates as birth and death", async () => {
    const docs: FakeDoc[] = [
      {
        url: WIKI("Veldoria"),
        title: "Veldoria",
        text: "Veldoria is a province in the north of the island. Its capital is Arnsby and its largest city is Kelm.",
      },
      {
        url: WIKI("Arnsby, Veldoria"),
        title: "Arnsby, Veldoria",
        text: "Arnsby is the capital of the province of Veldoria. It was named after Tomas Arnsby, the first governor of the province.",
      },
      { url: WIKI("Kelm"), title: "Kelm", text: "Kelm is the largest city of Veldoria and a busy port." },
      {
        url: WIKI("Tomas Arnsby"),
        title: "Tomas Arnsby",
        text: "Tomas Arnsby (March 3, 1702 – October 9, 1771) was a colonial administrator. He governed Veldoria for twenty years.",
      },
      { url: WIKI("Hilde Arnsby"), title: "Hilde Arnsby", text: "Hilde Arnsby (May 1, 1730 – June 2, 1790) was a painter from Kelm." },
    ];
    const result = await askStandard("What is the birth date of the person after whom the capital of Veldoria is named?", docs);
    expect(result.brief.split("\n")[0]).toMatch(/^Answer: March 3, 1702 \[\d\]\[\d\]\[\d\]\./);
    // Stated: the calibrated model puts it at 0.8 or more (the general path, through three pages).
    expect(result.answer).toMatchObject({ text: "March 3, 1702", probability: expect.any(Number) });
    expect(result.answer!.probability).toBeGreaterThanOrEqual(0.8);
    expect(result.sources.map((source) => source.title)).toEqual(expect.arrayContaining(["Veldoria", "Arnsby, Veldoria", "Tomas Arnsby"]));
  });

  it("answers yes/no comparisons on the deciding fact of each page", async () => {
    const docs: FakeDoc[] = [
      { url: WIKI("Rhine"), title: "Rhine", text: "The Rhine is one of the major European rivers. The Rhine is about 1,230 km (760 mi) long." },
      { url: WIKI("Thames"), title: "Thames", text: "The River Thames flows through southern England. It is 346 km (215 mi) long." },
    ];
    const question = "Are the Rhine and the Thames both longer than 1,000 kilometres?";
    // The direct path decides on each page's measure; whether it is stated is the calibrated
    // model's call (its `measure` rule has few training rows and sits near 0.8), so the path is
    // checked here and the brief only for quoting both deciding sentences either way.
    const evidence = new Evidence();
    for (const doc of docs) evidence.add(doc, "en.wikipedia.org", 1, [question]);
    const query = analyzeQuestion(question);
    const direct = directAnswer(query, analyzeEvidence(evidence, query).ranked);
    expect(direct).toMatchObject({ answer: "no", rule: "measure" });
    expect(direct!.text).toMatch(/^No: Rhine measures about 1,230 km and Thames about 346 km/);
    const result = await askStandard(question, docs);
    // Stated or not, the opening quotes the sentence each side was decided on.
    const opening = result.brief.split("\n\n")[0]!;
    expect(opening).toContain("The Rhine is about 1,230 km (760 mi) long");
    expect(opening).toContain("It is 346 km (215 mi) long");
    expect(opening).toMatch(
      result.answer ? /^No: Rhine measures about 1,230 km and Thames about 346 km/ : /^The sources read do not answer this directly; the closest evidence:/,
    );
  });
});
