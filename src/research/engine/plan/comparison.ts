import { askedSubjects, type QueryAnalysis, questionTopic, topicWords } from "../question";
import { STOPWORDS, words } from "../language";
import { formalName } from "../evidence";

/** The comparison's own words: not what it is about. */
const NOT_TOPIC = /^(?:differ\w*|difference\w*|compar\w*|contrast\w*|versus|vs|disagree\w*|similar\w*|alike|view\w*|position\w*)$/;

/** The topic of a comparison as search words ("role federal government"), from its phrase or else its focus terms. */
function comparisonTopicWords(query: QueryAnalysis, subjects: string[]): string[] {
  const topic = questionTopic(query.question, subjects[subjects.length - 1]);
  if (topic) return topicWords(topic).filter((word) => !NOT_TOPIC.test(word));
  const subjectWords = new Set(subjects.flatMap(words));
  return words(query.question).filter(
    (word) => !STOPWORDS.has(word) && !subjectWords.has(word) && !NOT_TOPIC.test(word) && query.focusTerms.some((term) => word.startsWith(term)),
  );
}

/**
 * One search per compared subject (or each of the speakers asked of), with the topic: each subject gets pages of its own (the whole
 * question finds the subject whose pages use its words most, and the other may get none). A
 * subject written as initials or a nickname is searched by the name its pages are titled by
 * ("Dwight D Eisenhower", not "Ike").
 */
export function comparisonBranches(query: QueryAnalysis): string[] {
  // Compared ("How did A and B differ on …") or asked of each ("How did A and B talk about …").
  const subjects = askedSubjects(query);
  if (subjects.length < 2) return [];
  const topic = comparisonTopicWords(query, subjects).join(" ");
  return subjects.map((subject) => `${standsFor(subject) ?? subject} ${topic}`.trim());
}

/** The name initials or a nickname stand for ("FDR", "Ike"), which share no word with it; null for any other form ("Teddy Roosevelt", "Frank Mellor" are searched as written). */
function standsFor(subject: string): string | null {
  const formal = formalName(subject);
  if (!formal) return null;
  const written = new Set(words(subject));
  return words(formal).some((word) => written.has(word)) ? null : formal;
}
