/**
 * HTML character references as text: every numeric one, and the named ones pages use in text
 * (the page reader's extractors, titles and snippets shown to callers).
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  shy: "",
  zwnj: "",
  zwj: "",
  lrm: "",
  rlm: "",
  ndash: "–",
  mdash: "—",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  lsaquo: "‹",
  rsaquo: "›",
  hellip: "…",
  bull: "•",
  middot: "·",
  prime: "′",
  Prime: "″",
  dagger: "†",
  Dagger: "‡",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  minus: "−",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  sup1: "¹",
  sup2: "²",
  sup3: "³",
  micro: "µ",
  para: "¶",
  sect: "§",
  cent: "¢",
  pound: "£",
  euro: "€",
  yen: "¥",
  iexcl: "¡",
  iquest: "¿",
  ordf: "ª",
  ordm: "º",
  szlig: "ß",
  AElig: "Æ",
  aelig: "æ",
  OElig: "Œ",
  oelig: "œ",
  Oslash: "Ø",
  oslash: "ø",
  Aring: "Å",
  aring: "å",
  ETH: "Ð",
  eth: "ð",
  THORN: "Þ",
  thorn: "þ",
  Ccedil: "Ç",
  ccedil: "ç",
  Ntilde: "Ñ",
  ntilde: "ñ",
  Scaron: "Š",
  scaron: "š",
  Yuml: "Ÿ",
  yuml: "ÿ",
};
/** Letters with a grave, acute, circumflex, tilde or umlaut: `&eacute;` is e + U+0301, composed. */
const ACCENTS: Record<string, string> = { grave: "\u0300", acute: "\u0301", circ: "\u0302", tilde: "\u0303", uml: "\u0308" };

function namedEntity(name: string): string | undefined {
  const known = NAMED_ENTITIES[name] ?? NAMED_ENTITIES[name.toLowerCase()];
  if (known !== undefined) return known;
  const accent = /^([a-zA-Z])(grave|acute|circ|tilde|uml)$/.exec(name);
  return accent ? (accent[1]! + ACCENTS[accent[2]!]).normalize("NFC") : undefined;
}

/** Decodes numeric character references and the named ones pages use in text ("Tunnels &amp; Trolls", "&#39;", "&eacute;"). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return namedEntity(name) ?? whole;
  });
}
