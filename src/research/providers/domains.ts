/** Domain allow/block lists: a domain matches itself and its subdomains, compared case-insensitively. */

export function normalizeDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^\*\./, "")
    .replace(/\.$/, "")
    .replace(/^www\./, "");
}

/** The host of a URL without a leading "www.", or "" when it does not parse. */
export function domainOf(url: string): string {
  try {
    return normalizeDomain(new URL(url).hostname);
  } catch {
    return "";
  }
}

function domainMatches(domain: string, rule: string): boolean {
  const host = normalizeDomain(domain);
  const wanted = normalizeDomain(rule);
  return wanted !== "" && (host === wanted || host.endsWith(`.${wanted}`));
}

export interface DomainFilter {
  includeDomains?: string[];
  excludeDomains?: string[];
}

/** Include first, then exclude (decisions.md); an empty include list allows every domain. */
export function domainAllowed(domain: string, filter: DomainFilter): boolean {
  const include = filter.includeDomains ?? [];
  if (include.length > 0 && !include.some((rule) => domainMatches(domain, rule))) return false;
  return !(filter.excludeDomains ?? []).some((rule) => domainMatches(domain, rule));
}
