/** The speech a year may be said with: "2015 State of the Union", "2010 address". */
const NAMED_SPEECH = String.raw`(?:\s+State\s+of\s+the\s+Union(?:\s+(?:address|speech|message))?|\s+(?:address|speech|message))?`;

/**
 * When something was said, as a question puts it beside its verb of saying ("What did Lincoln say
 * in 1862 about …", "… in his 2015 State of the Union about …"): group 1 is the year. A source
 * rather than a regular expression, for the patterns built around it (case-insensitive).
 */
export const SAID_WHEN = String.raw`(?:in|during)\s+(?:(?:his|her|their|the|its)\s+)?(1\d{3}|20\d{2})\b${NAMED_SPEECH}`;

/** The year a question puts something said or done in ("in 1898", "in his 2015 State of the Union"): group 1. */
export const SAID_YEAR = new RegExp(String.raw`\b${SAID_WHEN}`, "i");
