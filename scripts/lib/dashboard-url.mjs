// DASHBOARD_URL for a deploy that has none (issue 39): the Worker builds email and payment links
// only on DASHBOARD_URL, a loopback host or a host in LINK_HOSTS (src/services/link-origin.ts), so
// a deploy without it would refuse every signup. The address wrangler deployed to (its workers.dev
// target) is the dashboard's, since the Worker serves it.

/**
 * The workers.dev address in wrangler's structured output (the file WRANGLER_OUTPUT_FILE_PATH
 * names: one JSON object a line; a `deploy` entry lists its `targets`, with or without a scheme),
 * as an https origin, or null.
 */
export function deployedAddress(ndjson) {
  for (const line of ndjson.split("\n")) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry?.type !== "deploy" || !Array.isArray(entry.targets)) continue;
    for (const target of entry.targets) {
      const host = String(target)
        .replace(/^https?:\/\//, "")
        .replace(/\/.*$/, "")
        .toLowerCase();
      if (/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.workers\.dev$/.test(host)) return `https://${host}`;
    }
  }
  return null;
}

/** wrangler.toml with [vars]' DASHBOARD_URL set to `url`, a comment above it saying where it came from; nothing else changes. Null without that line. */
export function writeDashboardUrl(text, url, date = new Date()) {
  const lines = text.split("\n");
  let inVars = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (/^\[/.test(line)) inVars = line === "[vars]";
    if (inVars && /^DASHBOARD_URL\s*=/.test(line)) {
      const day = date.toISOString().slice(0, 10);
      const comment = `# Written by \`npm run deploy\` (scripts/deploy.mjs) on ${day}: the address wrangler deployed to; email links use it.`;
      const previous = lines[i - 1]?.trim().startsWith("# Written by `npm run deploy`") ? 1 : 0;
      lines.splice(i - previous, 1 + previous, comment, `DASHBOARD_URL = "${url}"`);
      return lines.join("\n");
    }
  }
  return null;
}
