import type { HopAttribute } from "../question";

/**
 * The few sentences the engine writes in its own words around an answer. Each is a fixed
 * grammatical frame filled with parts the question reader and the fact patterns identified
 * (a subject phrase, an entity, a date or place), never the question's words re-ordered around
 * a span: a shape without a frame here is answered plainly ("Answer: Lyon.").
 */

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "on 13 January 1956" for a full date, "in 1956" for a year or a month. */
function when(date: string): string {
  return /\d{1,2},?\s+\d{3,4}$|^\d{1,2}\s+\p{L}+\s+\d{3,4}$/u.test(date) ? `on ${date}` : `in ${date}`;
}

/** The relative clause that states an attribute of a person: "who was born in Lyon". */
function attributeClause(attribute: HopAttribute, value: string): string | null {
  switch (attribute) {
    case "birth_date":
      return `who was born ${when(value)}`;
    case "death_date":
      return `who died ${when(value)}`;
    case "birth_place":
      return `who was born in ${value}`;
    case "death_place":
      return `who died in ${value}`;
    case "burial_place":
      return `who is buried in ${value}`;
    case "nationality":
      return `who is ${value}`;
    case "cause_of_death":
      return `who died of ${value}`;
    case "award":
      return `who received the ${value.replace(/^the\s+/i, "")}`;
    case "employer":
      return `who worked at ${value}`;
    case "education":
      return `who studied at ${value}`;
    case "county":
    case "state":
    case "country":
      return `which is in ${value}`;
    default:
      return null;
  }
}

/**
 * The opening of a resolved chain: "The director of film Lorna is Dwight H. Little, who was born
 * on January 13, 1956." For "identity" the entity is the answer: "The father of X is Y."
 */
export function chainSentence(subjectPhrase: string, entity: string, attribute: HopAttribute, value: string): string {
  const clause = attributeClause(attribute, value);
  return `${capitalise(subjectPhrase)} is ${entity}${clause ? `, ${clause}` : ""}.`;
}

/** What was found of a chain that did not close, and what is missing: "The director of X is Y; no source read gives where Y was born." */
export function partialChainSentence(subjectPhrase: string, entity: string, attribute: HopAttribute): string {
  return `${capitalise(subjectPhrase)} is ${entity}; no source read states ${MISSING[attribute](entity)}.`;
}

const MISSING: Record<HopAttribute, (entity: string) => string> = {
  identity: (entity) => `more about ${entity}`,
  birth_date: (entity) => `when ${entity} was born`,
  death_date: (entity) => `when ${entity} died`,
  birth_place: (entity) => `where ${entity} was born`,
  death_place: (entity) => `where ${entity} died`,
  burial_place: (entity) => `where ${entity} is buried`,
  nationality: (entity) => `${entity}'s nationality`,
  cause_of_death: (entity) => `how ${entity} died`,
  award: (entity) => `an award ${entity} received`,
  employer: (entity) => `where ${entity} worked`,
  education: (entity) => `where ${entity} studied`,
  county: (entity) => `which county ${entity} is in`,
  state: (entity) => `which state ${entity} is in`,
  country: (entity) => `which country ${entity} is in`,
};

/** The plain opening when no frame fits the question's shape. */
export function plainAnswerSentence(answer: string): string {
  return `Answer: ${answer.replace(/[.\s]+$/, "")}.`;
}
