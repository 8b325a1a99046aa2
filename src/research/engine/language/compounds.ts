import { STOPWORDS, stem } from "./text";

/** Content words a compound's two words may have between them: "four essential human freedoms" says "four freedoms". */
const COMPOUND_GAP = 2;

/**
 * Whether the words hold one of the compounds: its two words in order, adjacent or with at most
 * COMPOUND_GAP content words between and no stopword ("four essential human freedoms" holds "four
 * freedoms"; "federal aid to state government" does not hold "state government"'s reverse, and
 * "the federal and the state government" does not hold "federal government").
 */
export function holdsCompound(tokens: string[], compounds: Set<string>, form: (term: string) => string = (term) => term): boolean {
  if (compounds.size === 0) return false;
  for (let index = 0; index < tokens.length; index++) {
    const first = tokens[index]!;
    if (STOPWORDS.has(first)) continue;
    const a = form(stem(first));
    for (let next = index + 1; next < tokens.length && next <= index + 1 + COMPOUND_GAP; next++) {
      const word = tokens[next]!;
      if (STOPWORDS.has(word)) break;
      if (compounds.has(`${a} ${form(stem(word))}`)) return true;
    }
  }
  return false;
}

/** The compounds of a phrase: its adjacent content words with no stopword between, as stems ("new federalism", "unconditional war"), of the words `keep` accepts. */
export function phraseCompounds(tokens: string[], keep: (term: string) => boolean = () => true): Set<string> {
  const compounds = new Set<string>();
  for (let index = 1; index < tokens.length; index++) {
    const [a, b] = [tokens[index - 1]!, tokens[index]!];
    if (!STOPWORDS.has(a) && !STOPWORDS.has(b) && keep(stem(a)) && keep(stem(b))) compounds.add(`${stem(a)} ${stem(b)}`);
  }
  return compounds;
}
