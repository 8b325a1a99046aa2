import { describe, expect, it } from "vitest";
import { countryIn, describedAnswer, describedEntity } from "../../src/research/engine/answer";
import { nextHops } from "../../src/research/engine/plan";
import { titleIsAspectOf } from "../../src/research/engine/evidence";
import { analyzeQuestion, readEmbeddedDescription, readHopChain, substitutedQuestion } from "../../src/research/engine/question";
import { answerOutcome, evidenceOf, featureOf } from "./helpers";

describe("an entity a question only describes", () => {
  it("reads the description inside an open question, whatever stands around it", () => {
    expect(readEmbeddedDescription("What is the name of the waterfall in the country where the Quell River is found?")).toMatchObject({
      anchor: "Quell River",
      relations: ["in_country"],
      before: "What is the name of the waterfall in ",
      after: "",
    });
    expect(readEmbeddedDescription("Who was president when the area where Brisk Wind Farm is located became a state?")).toMatchObject({
      anchor: "Brisk Wind Farm",
      relations: ["in_place"],
      after: " became a state",
    });
    expect(readEmbeddedDescription("Which is the body of water by the birthplace of the author of Dry Ledger?")).toMatchObject({
      anchor: "Dry Ledger",
      relations: ["author", "birth_place"],
    });
    expect(readEmbeddedDescription("Who was the first president of Tamberlo's country?")).toMatchObject({ anchor: "Tamberlo", relations: ["in_country"] });
    // The anchor is a name: a clause after it ends the description, it does not join the name.
    expect(readEmbeddedDescription("What kind of university did the author of Rain and the Long, Slow Day attend?")).toMatchObject({
      anchor: "Rain and the Long, Slow Day",
      relations: ["author"],
      after: " attend",
    });
    // A place described by what it contains, what it produced, where something is from or
    // licensed to; a kind of place before the name is not part of it.
    expect(readEmbeddedDescription("When did the country containing Orvale leave the British Empire?")).toMatchObject({
      anchor: "Orvale",
      relations: ["in_country"],
      after: " leave the British Empire",
    });
    expect(readEmbeddedDescription("When was the country that produced Iron Palm taken by the British?")).toMatchObject({
      anchor: "Iron Palm",
      relations: ["in_country"],
      after: " taken by the British",
    });
    expect(readEmbeddedDescription("What currency predated the Euro in the country Stillmark is from?")).toMatchObject({
      anchor: "Stillmark",
      relations: ["in_country"],
    });
    expect(readEmbeddedDescription("What is the name of the airport in the city where WQRX is licensed to broadcast?")).toMatchObject({
      anchor: "WQRX",
      relations: ["in_place"],
    });
    expect(readEmbeddedDescription("When did the country where the village of Brookhollow is located, become a member of CARICOM?")).toMatchObject({
      anchor: "Brookhollow",
      relations: ["in_country"],
    });
    // A question the hop chain reads whole is the chain's; a question without a description has none.
    expect(readEmbeddedDescription("Where was the director of film Low Tide born?")).toBeNull();
    expect(readEmbeddedDescription("What is the capital of Norway?")).toBeNull();
    const description = readEmbeddedDescription("When did the first store open in the state where Orrin Tower is located?")!;
    expect(substitutedQuestion(description, "Kansas")).toBe("When did the first store open in Kansas?");
    // A comma that closed the description goes with it.
    const closed = readEmbeddedDescription("When did the country where the village of Brookhollow is located, become a member of CARICOM?")!;
    expect(substitutedQuestion(closed, "Guyana")).toBe("When did Guyana become a member of CARICOM?");
  });

  it("answers on the described entity's page only, each hop resting on a sentence", () => {
    const evidence = evidenceOf([
      ["Quell River", "The Quell River is a river in Zambia. It rises in the eastern highlands."],
      ["Zambia", "Zambia is a landlocked country in southern Africa. The Tessel Falls is the largest waterfall in Zambia, on the Zarn River."],
      ["Malawi", "Malawi is a country in Africa. Its largest waterfall is the Opal Cascade."],
    ]);
    const query = analyzeQuestion("What is the name of the waterfall in the country where the Quell River is found?");
    expect(describedEntity(query.description!, evidence)).toMatchObject({ entity: "Zambia", missing: null });
    const found = describedAnswer(query, evidence);
    expect(found?.text).toBe("Tessel Falls");
    expect(found?.asked.question).toBe("What is the name of the waterfall in Zambia?");
    expect(found?.basis.map((passage) => passage.text)).toEqual([
      "The Quell River is a river in Zambia.",
      "The Tessel Falls is the largest waterfall in Zambia, on the Zarn River.",
    ]);
    expect(found?.near).toBe(true);
    expect(found?.onEntityPage).toBe(true);
  });

  it("reads the country containing a place, not a neighbour its lead names", () => {
    const evidence = evidenceOf([
      ["Tamberlo", "Tamberlo is a small village located in eastern Djibouti, in the Arta Region, north of the border with Somalia."],
    ]);
    const query = analyzeQuestion("Who was the first president of Tamberlo's country?");
    expect(describedEntity(query.description!, evidence).entity).toBe("Djibouti");
    expect(countryIn("a town near the border with Kenya")).toBeNull();
    expect(countryIn("a village in Prokhorovsky District, Belgorod Oblast, Russia")?.value).toBe("Russia");
  });

  it("searches the page of a hop not read, then the question asked of the entity by name; answers nothing without a page that says it", () => {
    const query = analyzeQuestion("What is the name of the waterfall in the country where the Quell River is found?");
    expect(nextHops(query, evidenceOf([]))).toEqual({ targets: ["Quell River"], closed: false });
    const evidence = evidenceOf([["Quell River", "The Quell River is a river in Zambia."]]);
    expect(describedEntity(query.description!, evidence)).toMatchObject({ entity: "Zambia", missing: null });
    expect(nextHops(query, evidence)).toEqual({ targets: ["What is the name of the waterfall in Zambia", "Zambia"], closed: false });
    // The only page naming Zambia is the river's, a link of the chain: no answer.
    expect(describedAnswer(query, evidence)).toBeNull();
    // The answer may stand on a page of its own that names the entity.
    const withFalls = evidenceOf([
      ["Quell River", "The Quell River is a river in Zambia."],
      ["Tessel Falls", "At 108 metres, the Tessel Falls is the highest waterfall in Zambia."],
    ]);
    expect(describedAnswer(query, withFalls)).toMatchObject({ text: "Tessel Falls", onEntityPage: false });
    const city = analyzeQuestion("When did the Harrow Theatre open in the city where the Pellam Museum is located?");
    const museum = evidenceOf([["Pellam Museum", "The Pellam Museum is an art museum located in Dunmore, Oklahoma, in a former mansion."]]);
    expect(describedEntity(city.description!, museum).entity).toBe("Dunmore, Oklahoma");
  });

  it("reads a described entity on a page of one side of it when its own page was not read", () => {
    const query = analyzeQuestion("When did the state where the Pell Mounds are located become a state?");
    const mounds = ["Pell Mounds", "The Pell Mounds are an archaeological site in Hinds County, Mississippi."] as [string, string];
    expect(describedEntity(query.description!, evidenceOf([mounds])).entity).toBe("Mississippi");
    // Its own page not read: the next wave searches the question about it and the entity by name.
    expect(nextHops(query, evidenceOf([mounds])).targets).toEqual(["When did Mississippi become a state", "Mississippi"]);
    const history = evidenceOf([mounds, ["History of Mississippi", "On December 10, 1817, Mississippi became a state, the 20th of the Union."]]);
    expect(describedAnswer(query, history)).toMatchObject({ text: "December 10, 1817", onEntityPage: true });
    expect(titleIsAspectOf("History of Mississippi", "Mississippi")).toBe(true);
    expect(titleIsAspectOf("South Korea at the Olympics", "South Korea")).toBe(true);
    expect(titleIsAspectOf("Midway, Copiah County, Mississippi", "Mississippi")).toBe(false);
    expect(titleIsAspectOf("Mississippi River", "Mississippi")).toBe(false);
  });

  it("answers only where the question's other names are said: the first Tollmart in Maryland is not Maryland's first settlers", () => {
    const query = analyzeQuestion("When did the first Tollmart open in the state where the Chaunt Tower is located?");
    const tower = ["Chaunt Tower", "The Chaunt Tower is located at Glen Park in Montgomery County, Maryland, USA."] as [string, string];
    const history = ["History of Maryland", "In 1634, the first settlers of Maryland landed at St. Clement's Island."] as [string, string];
    expect(describedAnswer(query, evidenceOf([tower, history]))).toBeNull();
    const store = ["History of Tollmart", "In 1991, Tollmart opened its first store in Maryland, at Hagerstown."] as [string, string];
    expect(describedAnswer(query, evidenceOf([tower, history, store]))).toMatchObject({ text: "1991" });
  });

  it("reads a work's title as the anchor, and the country a film's lead names before its genre", () => {
    // "The Creator of the Universe" is a title: its capitalised "Creator" is no relation of the description.
    expect(readEmbeddedDescription("What college did the performer of The Creator of the Lamps go to?")).toMatchObject({
      anchor: "The Creator of the Lamps",
      relations: ["performer"],
    });
    // A question's own relation word may be capitalised.
    expect(readHopChain("Who is the Director of the film Titanic?")).toMatchObject({ anchor: "Titanic", relations: ["director"] });
    const query = analyzeQuestion("When was the country that produced Fist Reign taken by the British?");
    const film = evidenceOf([["Fist Reign", "Fist Reign is a 2000 Hong Kong action film directed by Amos Chan."]]);
    expect(describedEntity(query.description!, film)).toMatchObject({ entity: "Hong Kong", missing: null });
  });

  it("reads the state or place of a life or an event, a description that opens the question, and a state a place's name is", () => {
    expect(readEmbeddedDescription("The state where Hal Wurrel died has how many congressional districts?")).toMatchObject({
      anchor: "Hal Wurrel",
      relations: ["death_place", "in_state"],
      before: "",
      after: " has how many congressional districts",
    });
    expect(readEmbeddedDescription("What body of water is near the location where the Siege of Carrow took place?")).toMatchObject({
      anchor: "Siege of Carrow",
      relations: ["in_place"],
    });
    expect(readEmbeddedDescription("Who from the state with the Rutz Farmstead signed the declaration of independence?")).toMatchObject({
      anchor: "Rutz Farmstead",
      relations: ["in_state"],
    });
    const query = analyzeQuestion("The state where Hal Wurrel died has how many congressional districts?");
    // "He died in Kansas": the place is the state; "died in Topeka, Kansas": its name says the state, with no page of Topeka read.
    const inState = evidenceOf([["Hal Wurrel", "Hal Wurrel (1825-1902) was an American painter. He died in Kansas in 1902."]]);
    expect(describedEntity(query.description!, inState)).toMatchObject({ entity: "Kansas", missing: null });
    const inCity = evidenceOf([["Hal Wurrel", "Hal Wurrel (1825-1902) was an American painter. He died in Topeka, Kansas in 1902."]]);
    expect(describedEntity(query.description!, inCity)).toMatchObject({ entity: "Kansas", missing: null });
    const districts = evidenceOf([
      ["Hal Wurrel", "Hal Wurrel (1825-1902) was an American painter. He died in Kansas in 1902."],
      ["Kansas's congressional districts", "Kansas is currently divided into 4 congressional districts, each represented by a member of the House."],
    ]);
    expect(describedAnswer(query, districts)).toMatchObject({ text: "4 congressional districts", onEntityPage: false });
  });

  it("reads a relative clause as a description, and the entity it describes in the sentence of its name's page that says it", () => {
    expect(readEmbeddedDescription("What government position was held by the woman who portrayed Lucy Vane in the film Quiet Harbour?")).toMatchObject({
      anchor: "Quiet Harbour",
      relations: [],
      before: "What government position was held by ",
      after: "",
      clause: { noun: "woman", names: ["Lucy Vane", "Quiet Harbour"] },
    });
    // Closing the question, the clause ends with its last name: what follows is still asked of the entity.
    expect(readEmbeddedDescription('Who did the actor who starred as Tom Reed in the series "North Line" have a child with?')).toMatchObject({
      after: " have a child with",
      clause: { noun: "actor" },
    });
    // Opening it, with its first name; a clause with its own subject is a whole sentence.
    expect(readEmbeddedDescription("The manager who recruited Dale Otway managed Carrow United during what timeframe?")).toMatchObject({
      before: "",
      anchor: "Dale Otway",
      after: " managed Carrow United during what timeframe",
    });
    expect(readEmbeddedDescription("Who directed the film in which Mara Lind made her debut?")).toMatchObject({ anchor: "Mara Lind", after: "" });

    const evidence = evidenceOf([
      ["Quiet Harbour", "Quiet Harbour is a 1945 comedy film. It starred Ada Marlow as Lucy Vane, with Ben Stroud as her father."],
      ["Ada Marlow", "Ada Marlow (1928 – 2014) was an actress. As an adult she served as Chief of Protocol of the United States."],
      ["Ben Stroud", "Ben Stroud was an actor and a state senator."],
    ]);
    const query = analyzeQuestion("What government position was held by the woman who portrayed Lucy Vane in the film Quiet Harbour?");
    expect(describedEntity(query.description!, evidence)).toMatchObject({ entity: "Ada Marlow", missing: null });
    const found = describedAnswer(query, evidence);
    expect(found).toMatchObject({ text: "Chief of Protocol", asked: { question: "What government position was held by Ada Marlow?" }, onEntityPage: true });
    expect(found!.basis[0]!.text).toContain("Ada Marlow as Lucy Vane");
    // Without the page of a name the clause holds, that page is what to search.
    expect(describedEntity(query.description!, evidenceOf([])).missing).toBe("Quiet Harbour");
  });

  it("never states a fact of the page the description starts from, once it reached another entity", () => {
    const pages = evidenceOf([
      [
        "Vincent Vale",
        "Vincent Vale (30 March 1853 – 29 July 1890) was a Dutch painter. He was supported financially by his brother Theo Vale for most of his life.",
      ],
      ["Theo Vale", "Theo Vale was a Dutch art dealer. He sold paintings in Paris and The Hague."],
    ]);
    const outcome = answerOutcome("In which year did the brother who financially supported the painter Vincent Vale die?", pages);
    // Vincent's own death date, on his page, is not his brother's.
    expect(featureOf(outcome, "29 July 1890", "wrong_hop")).toBe(1);
    expect(outcome.answer).toBeNull();
  });

  it("asks who was in charge of the entity by the office its page names, and never answers the office", () => {
    const evidence = evidenceOf([
      ["Orlent", "Orlent is a town in the central Varo region of Chad."],
      [
        "Chad",
        "Chad is a country in the heart of Africa. On 10 September 2012, parliament elected Rufus Teal Firefly as the new President of Chad. The Prime Minister of Chad leads the cabinet.",
      ],
    ]);
    const query = analyzeQuestion("Who was in charge of the country Orlent is located in?");
    expect(describedEntity(query.description!, evidence)).toMatchObject({ entity: "Chad", missing: null });
    // "in charge" is said with the office ("President"), and the office itself is no one.
    expect(describedAnswer(query, evidence)?.text).toBe("Rufus Teal Firefly");
    const outcome = answerOutcome("Who was in charge of the country Orlent is located in?", evidence);
    expect((outcome.candidates ?? []).map((candidate) => candidate.text)).not.toContain("Prime Minister");
    // A page naming the holders of two offices does not say which is in charge: its president or its prime minister.
    const twoOffices = evidenceOf([
      ["Orlent", "Orlent is a town in the central Varo region of Chad."],
      [
        "Chad",
        "Chad is a country in the heart of Africa. On 10 September 2012, parliament elected Rufus Teal Firefly as the new President of Chad. On 17 December 2014, former Premier Omar Dane Wick was reappointed Prime Minister.",
      ],
    ]);
    expect(describedAnswer(query, twoOffices)).toBeNull();
    expect(answerOutcome("Who was in charge of the country Orlent is located in?", twoOffices).answer).toBeNull();
  });

  it("reads a page that names the entity when the entity's own page does not say what is asked", () => {
    const evidence = evidenceOf([
      ["Bokundi", "Bokundi is a town in the Eastern Region of Malawi."],
      ["Malawi", "Malawi is a landlocked country in East Africa. Its capital is Kamlo."],
      [
        "Leader of Opposition (Malawi)",
        "The Leader of Opposition (LOP) in Malawi is the title given to the leader of the largest party not in government. The current Leader of Opposition is Hon. Wanja Kiru of the Forum for Change.",
      ],
    ]);
    const query = analyzeQuestion("Who is the current opposition leader in the country where Bokundi is located?");
    // Not the office's short form, nor the courtesy before the name.
    expect(describedAnswer(query, evidence)).toMatchObject({ text: "Wanja Kiru", onEntityPage: false });
    // A count stays on the entity's own page: another page's figure is its own subject's.
    const counted = evidenceOf([
      ["Bokundi", "Bokundi is a town in the Eastern Region of Malawi. The population was 27,340 at the 2014 census."],
      ["Malawi", "Malawi is a landlocked country in East Africa. Its capital is Kamlo."],
    ]);
    expect(describedAnswer(analyzeQuestion("What is the population of the country where Bokundi is located?"), counted)).toBeNull();
  });

  it("asks the question's verb of the entity when it stands between the noun and its clause", () => {
    const description = readEmbeddedDescription("Where did the band form that made the live album Tokyo Gold?")!;
    expect(description).toMatchObject({ anchor: "Tokyo Gold", before: "Where did ", after: " form", clause: { noun: "band" } });
    expect(substitutedQuestion(description, "Iron Lantern")).toBe("Where did Iron Lantern form?");
    // The clause's noun tells its sentence: the band the page names, not another live album's maker.
    const evidence = evidenceOf([
      ["Tokyo Gold", 'Tokyo Gold is a live EP by the British heavy metal band Iron Lantern. Its title is a pun on Deep Violet\'s live album "Made in Tokyo".'],
      ["Iron Lantern", "Iron Lantern are an English heavy metal band formed in Leyton, East London, in 1975."],
    ]);
    const query = analyzeQuestion("Where did the band form that made the live album Tokyo Gold?");
    expect(describedEntity(query.description!, evidence).entity).toBe("Iron Lantern");
    expect(describedAnswer(query, evidence)?.text).toContain("Leyton");
  });

  it("asks for the partner a sentence joins to the described entity, not a name nearer the title", () => {
    const evidence = evidenceOf([
      ["Brass (Ned Carrow album)", "Brass is a greatest hits album by Ned Carrow, released in 2006."],
      [
        "Higher Than We Stand",
        '"Higher Than We Stand" is a song written by Jack Pellow, Ruth Marie and Wil Jennet that was recorded by Ned Carrow and Jenna Warne for the 1982 film Tall Ship.',
      ],
    ]);
    const query = analyzeQuestion("Who sang Higher Than We Stand with the performer of Brass?");
    expect(describedEntity(query.description!, evidence).entity).toBe("Ned Carrow");
    expect(describedAnswer(query, evidence)?.text).toBe("Jenna Warne");
  });

  it("measures how the answer fits the question asked of the entity, on the answer's own sentence", () => {
    const evidence = evidenceOf([
      ["Quell River", "The Quell River is a river in Zambia. It rises in the eastern highlands."],
      ["Zambia", "Zambia is a landlocked country in southern Africa. The Tessel Falls is the largest waterfall in Zambia, on the Zarn River."],
    ]);
    const outcome = answerOutcome("What is the name of the waterfall in the country where the Quell River is found?", evidence);
    // "What is the name of the waterfall" asks for a waterfall, and "Falls" names one.
    expect(analyzeQuestion("What is the name of the waterfall in Zambia?").askedNoun).toEqual(["waterfall"]);
    expect(analyzeQuestion("What is the name of Tamberlo's wife?").askedNoun).toEqual([]);
    expect(featureOf(outcome, "Tessel Falls", "names_asked_noun")).toBe(1);
    // "What is the name of the waterfall in Zambia?": its terms (waterfall, zambia) are both said
    // by the answer's sentence; the description's own words (Quell, river, found) are not asked of it.
    expect(featureOf(outcome, "Tessel Falls", "question_said")).toBe(1);
  });

  it("answers what currency with a currency's name, never an organisation a sentence of the currency names", () => {
    const pages: [string, string][] = [
      ["Stillmark", "Stillmark was one of the artists competing in Finland's national qualifications for the 2009 Eurovision Song Contest."],
      ["Euro", "The euro is the sole currency of 19 EU member states: Austria, Belgium, Finland, France and Spain."],
    ];
    const evidence = evidenceOf(pages);
    const query = analyzeQuestion("What currency predated the Euro in the country Stillmark is from?");
    expect(describedEntity(query.description!, evidence).entity).toBe("Finland");
    expect(describedAnswer(query, evidence)).toBeNull();
    const withMarkka = evidenceOf([...pages, ["Nordic Krona", "The Nordic Krona was the currency of Finland before the euro replaced it in 2002."]]);
    expect(describedAnswer(query, withMarkka)?.text).toBe("Nordic Krona");
  });

  it("reads a page titled by the entity's demonym, whose lead frames what its later sentence dates", () => {
    const evidence = evidenceOf([
      ["Dust Season", '"Dust Season" is a film set in Sri Lanka during the 1990s, against the backdrop of the civil war (1983 – 2009).'],
      [
        "Sri Lankan independence movement",
        "The Sri Lankan independence movement was a peaceful political movement which aimed at achieving self-rule for Sri Lanka, then Ceylon, from the British Empire. It was led mostly by the educated middle class. It succeeded when, on February 4, 1948, Ceylon was granted independence as the Dominion of Ceylon.",
      ],
    ]);
    const query = analyzeQuestion("When did the country in which Dust Season is set, leave the British Empire?");
    expect(describedEntity(query.description!, evidence).entity).toBe("Sri Lanka");
    // "Leave the British Empire" is said as independence granted; the date's sentence names neither
    // Sri Lanka nor the Empire, the page's title and lead do.
    expect(describedAnswer(query, evidence)).toMatchObject({ text: "February 4, 1948", onEntityPage: false });
    // A demonym in a sentence names no entity: "a Sri Lankan film" is no page on Sri Lanka.
    const film = evidenceOf([
      ["Dust Season", '"Dust Season" is a film set in Sri Lanka during the 1990s.'],
      ["Harbour Film", "Harbour Film is a Sri Lankan film about the British Empire. It was released on May 2, 1950."],
    ]);
    expect(describedAnswer(query, film)).toBeNull();
  });
});
