/**
 * robots.txt: the Disallow/Allow rules of the group that names our agent (or `*`), matched
 * the way Google documents it: the longest matching rule wins, Allow wins a tie, `*` is a
 * wildcard and `$` anchors the end.
 */

export interface RobotsRules {
  allow: string[];
  disallow: string[];
}

export function parseRobots(text: string, agent: string): RobotsRules {
  const groups: { agents: string[]; allow: string[]; disallow: string[] }[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const field = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (field === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], allow: [], disallow: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (field === "disallow" && value) current.disallow.push(value);
    if (field === "allow" && value) current.allow.push(value);
  }
  const name = agent.toLowerCase();
  const specific = groups.filter((group) => group.agents.some((entry) => entry !== "*" && name.includes(entry)));
  const chosen = specific.length > 0 ? specific : groups.filter((group) => group.agents.includes("*"));
  return { allow: chosen.flatMap((group) => group.allow), disallow: chosen.flatMap((group) => group.disallow) };
}

function ruleMatches(rule: string, path: string): boolean {
  const anchored = rule.endsWith("$");
  const pattern = (anchored ? rule.slice(0, -1) : rule)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}${anchored ? "$" : ""}`).test(path);
}

export function robotsAllows(rules: RobotsRules, path: string): boolean {
  const longest = (list: string[]) => Math.max(-1, ...list.filter((rule) => ruleMatches(rule, path)).map((rule) => rule.length));
  const allow = longest(rules.allow);
  const disallow = longest(rules.disallow);
  return disallow < 0 || allow >= disallow;
}

/** How long a host's robots.txt is trusted; an answer we could not get is asked again sooner. */
const ROBOTS_TTL_MS = 60 * 60 * 1000;
const ROBOTS_RETRY_MS = 60 * 1000;

/**
 * robots.txt rules per origin, shared by every reader of the isolate: a host's rules are fetched
 * once an hour, not once per queue batch (each wave's reads come in a new batch, and on the web a
 * robots.txt fetch is a full round trip before the first page of its host). Bounded: the oldest
 * origin is dropped past `maxOrigins`.
 */
export class RobotsCache {
  private readonly entries = new Map<string, { rules: Promise<RobotsRules>; expiresAt: number }>();

  constructor(
    private readonly maxOrigins = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The origin's rules, loaded with `load` when absent or stale; `load` says whether its answer was a real one. */
  rules(origin: string, load: () => Promise<{ rules: RobotsRules; answered: boolean }>): Promise<RobotsRules> {
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > this.now()) return cached.rules;
    const entry = { rules: Promise.resolve<RobotsRules>({ allow: [], disallow: [] }), expiresAt: this.now() + ROBOTS_RETRY_MS };
    entry.rules = load().then(({ rules, answered }) => {
      entry.expiresAt = this.now() + (answered ? ROBOTS_TTL_MS : ROBOTS_RETRY_MS);
      return rules;
    });
    this.entries.delete(origin);
    this.entries.set(origin, entry);
    if (this.entries.size > this.maxOrigins) this.entries.delete(this.entries.keys().next().value!);
    return entry.rules;
  }
}
