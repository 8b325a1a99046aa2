/**
 * Places and the words for their people, so "a Japanese rock band" holds "Japan" and "an American
 * actor" holds "the United States". Each group's phrases are interchangeable when a claim's name is
 * looked for in its quotes. Lower-case, accent-folded words, as `words()` splits them.
 */
const GROUPS = [
  "united states|united states of america|usa|us|america|american|americans",
  "united kingdom|uk|britain|great britain|british|briton|britons",
  "england|english",
  "scotland|scottish|scots|scot",
  "wales|welsh",
  "ireland|irish",
  "northern ireland|northern irish",
  "soviet union|ussr|soviet|soviets",
  "russia|russian|russians",
  "japan|japanese",
  "china|chinese",
  "taiwan|taiwanese",
  "korea|korean|koreans",
  "south korea|south korean",
  "north korea|north korean",
  "india|indian|indians",
  "pakistan|pakistani",
  "bangladesh|bangladeshi",
  "france|french",
  "germany|german|germans",
  "italy|italian|italians",
  "spain|spanish|spaniard|spaniards",
  "portugal|portuguese",
  "netherlands|holland|dutch",
  "belgium|belgian",
  "switzerland|swiss",
  "austria|austrian",
  "sweden|swedish|swede|swedes",
  "norway|norwegian",
  "denmark|danish|dane|danes",
  "finland|finnish|finn|finns",
  "iceland|icelandic",
  "poland|polish|pole|poles",
  "czech republic|czechia|czech",
  "slovakia|slovak",
  "hungary|hungarian",
  "romania|romanian",
  "bulgaria|bulgarian",
  "greece|greek|greeks",
  "turkey|turkish|turk|turks",
  "ukraine|ukrainian",
  "belarus|belarusian",
  "serbia|serbian|serb|serbs",
  "croatia|croatian|croat|croats",
  "slovenia|slovenian|slovene",
  "bosnia|bosnian",
  "albania|albanian",
  "lithuania|lithuanian",
  "latvia|latvian",
  "estonia|estonian",
  "canada|canadian|canadians",
  "mexico|mexican|mexicans",
  "brazil|brazilian",
  "argentina|argentine|argentinian",
  "chile|chilean",
  "peru|peruvian",
  "colombia|colombian",
  "venezuela|venezuelan",
  "cuba|cuban",
  "jamaica|jamaican",
  "australia|australian|australians",
  "new zealand|new zealander",
  "south africa|south african",
  "nigeria|nigerian",
  "kenya|kenyan",
  "ethiopia|ethiopian",
  "egypt|egyptian",
  "morocco|moroccan",
  "algeria|algerian",
  "ghana|ghanaian",
  "israel|israeli",
  "iran|iranian|persia|persian",
  "iraq|iraqi",
  "syria|syrian",
  "lebanon|lebanese",
  "jordan|jordanian",
  "saudi arabia|saudi",
  "afghanistan|afghan",
  "vietnam|vietnamese",
  "thailand|thai",
  "philippines|filipino|philippine",
  "indonesia|indonesian",
  "malaysia|malaysian",
  "singapore|singaporean",
  "europe|european",
  "africa|african",
  "asia|asian",
  "scandinavia|scandinavian",
  "texas|texan",
  "california|californian",
  "new york|new yorker",
  "rome|roman",
  "paris|parisian",
  "london|londoner",
  "venice|venetian",
].map((line) => line.split("|").map((phrase) => phrase.split(" ")));

const BY_WORD = new Map<string, string[][][]>();
for (const group of GROUPS) {
  for (const phrase of group) {
    const key = phrase.join(" ");
    const list = BY_WORD.get(key) ?? [];
    list.push(group);
    BY_WORD.set(key, list);
  }
}

/** The phrases that stand for `word` (itself first): "japanese" → [["japanese"], ["japan"]]. */
export function equivalents(word: string): string[][] {
  const groups = BY_WORD.get(word) ?? [];
  return [[word], ...groups.flat().filter((phrase) => phrase.join(" ") !== word)];
}
