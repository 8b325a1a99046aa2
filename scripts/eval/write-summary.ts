/**
 * What the service kept of a model's writing, summed over a run (issue 40): the write stage's
 * report of each job (GET /api/admin/jobs/{id}, `write_report`) says, for every claim the model
 * wrote and for its short answer, whether it was kept and why not. A job written offline, or by a
 * service whose write stage does not report, has none: the summary counts those apart and says
 * "no model write report", never a share of nothing.
 */

/** The report as the admin API returns it (src/research/engine/write/write-report.ts), read leniently: `kind` where the service gives one. */
export interface EvalWriteReport {
  claims: { text: string; kept: boolean; revised: boolean; reason: string | null; kind?: string | null }[];
  answer: { text: string; kept: boolean; reason: string | null; kind?: string | null } | null;
  calls: number;
}

export interface WriteSummary {
  /** Jobs looked at, and how many of them carried a report. */
  jobs: number;
  reported: number;
  claims: { written: number; kept: number; keptAtOnce: number; keptAfterRevision: number; dropped: number; droppedBy: Record<string, number> };
  answers: { given: number; kept: number; dropped: number; droppedBy: Record<string, number> };
  /** Jobs whose write sent claims back to the model (a revise call), and the model calls the writes made in all. */
  revisedJobs: number;
  calls: number;
}

export const NO_REPORT = "no model write report";

/**
 * The kind of a reason, to group the dropped by: the service's own `kind` when it sends one
 * ("number_not_in_quotes" -> "number not in quotes"), else read from the reason's words
 * ("1898 is in none of its quotes" -> "number not in quotes"). A reason of no known kind is kept
 * with its numbers and quoted words blanked, so the same reason about different claims still groups.
 */
export function reasonKind(reason: string | null, kind?: string | null): string {
  if (kind) return kind.replace(/_/g, " ");
  if (!reason) return "no reason given";
  const text = reason.toLowerCase();
  // "withdrawn: <why it went back>": the model withdrew it when told why; both are worth knowing.
  const withdrawn = /^\s*withdr[ae]wn?\b[^:]*(?::\s*(.+))?$/is.exec(reason);
  if (withdrawn) return withdrawn[1] ? `withdrawn (${reasonKind(withdrawn[1])})` : "withdrawn";
  if (/\bwithdr[ae]wn?\b/.test(text)) return "withdrawn";
  if (/\bquote\b.*\btoo short\b/.test(text)) return "quote too short";
  if (/\bquote\b.*\bnot in (?:source|the source)\b/.test(text)) return "quote not in source";
  if (/\bno quote\b|\bhas no quote/.test(text)) return "no quote";
  if (/\bsource \d+ is not one of\b|\bnot (?:one of )?the (?:numbered|listed) sources\b|\bnot in `?sources`?\b/.test(text)) return "source not listed";
  const missing = /^(.+?) (?:is|are) (?:in none of its quotes|not in (?:its|the) quotes)/.exec(reason);
  if (missing) return /\d/.test(missing[1]!) ? "number not in quotes" : "name not in quotes";
  if (/none of its words\b/.test(text)) return "name not in quotes";
  if (/\bcritic\b|\bfact checker\b/.test(text)) return "critic";
  if (/\bdangling\b|\bpronoun\b|\bleans on\b/.test(text)) return "dangling";
  return `other: ${reason
    .replace(/["“][^"”]*["”]/g, "“…”")
    .replace(/\d[\d,.]*/g, "N")
    .replace(/:.*$/, "")
    .trim()}`;
}

const add = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

export function summarizeWrites(reports: (EvalWriteReport | null)[]): WriteSummary {
  const summary: WriteSummary = {
    jobs: reports.length,
    reported: 0,
    claims: { written: 0, kept: 0, keptAtOnce: 0, keptAfterRevision: 0, dropped: 0, droppedBy: {} },
    answers: { given: 0, kept: 0, dropped: 0, droppedBy: {} },
    revisedJobs: 0,
    calls: 0,
  };
  for (const report of reports) {
    if (!report) continue;
    summary.reported++;
    // A revise call is what sent claims back; `calls` may also count the critic's.
    if (report.claims.some((claim) => claim.revised)) summary.revisedJobs++;
    summary.calls += report.calls;
    for (const claim of report.claims) {
      summary.claims.written++;
      if (claim.kept) {
        summary.claims.kept++;
        if (claim.revised) summary.claims.keptAfterRevision++;
        else summary.claims.keptAtOnce++;
      } else {
        summary.claims.dropped++;
        add(summary.claims.droppedBy, reasonKind(claim.reason, claim.kind));
      }
    }
    if (report.answer) {
      summary.answers.given++;
      if (report.answer.kept) summary.answers.kept++;
      else {
        summary.answers.dropped++;
        add(summary.answers.droppedBy, reasonKind(report.answer.reason, report.answer.kind));
      }
    }
  }
  return summary;
}

const share = (part: number, whole: number) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}% (${part}/${whole})`);
const byCount = (counts: Record<string, number>) => Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/** The run's table: the share of the model's claims and answers kept, and the dropped by reason. */
export function writeSummaryTable(summary: WriteSummary): string {
  if (summary.reported === 0) return `${NO_REPORT}: none of the ${summary.jobs} jobs carried one (the offline engine, or a write stage that does not report).`;
  const { claims, answers } = summary;
  const rows = [
    "| the model's writing | |",
    "|---|---|",
    `| claims written | ${claims.written} |`,
    `| claims kept | ${share(claims.kept, claims.written)} |`,
    `| kept as first written | ${claims.keptAtOnce} |`,
    `| kept after revision | ${claims.keptAfterRevision} |`,
    `| claims dropped | ${claims.dropped} |`,
    ...byCount(claims.droppedBy).map(([kind, n]) => `| dropped: ${kind} | ${n} |`),
    `| answers given | ${answers.given} |`,
    `| answers kept | ${share(answers.kept, answers.given)} |`,
    ...byCount(answers.droppedBy).map(([kind, n]) => `| answer dropped: ${kind} | ${n} |`),
    `| jobs with a revise call | ${share(summary.revisedJobs, summary.reported)} |`,
    `| model calls of the write, a job | ${(summary.calls / summary.reported).toFixed(2)} |`,
  ];
  const missing = summary.jobs - summary.reported;
  return `${rows.join("\n")}${missing > 0 ? `\n\n${missing} of ${summary.jobs} jobs: ${NO_REPORT}.` : ""}`;
}

/** One question's write, for --verbose: what was kept, and each dropped claim or answer with its reason. */
export function writeDetail(report: EvalWriteReport | null): string[] {
  if (!report) return [`   write: ${NO_REPORT}`];
  const kept = report.claims.filter((claim) => claim.kept);
  const revised = kept.filter((claim) => claim.revised).length;
  const lines = [`   write: ${kept.length}/${report.claims.length} claims kept${revised ? ` (${revised} after revision)` : ""}, ${report.calls} call(s)`];
  for (const claim of report.claims.filter((claim) => !claim.kept)) {
    lines.push(`     dropped (${reasonKind(claim.reason, claim.kind)}): ${claim.text.slice(0, 120)}${claim.reason ? ` — ${claim.reason}` : ""}`);
  }
  const answer = report.answer;
  if (!answer) lines.push("     answer: none given");
  else if (answer.kept) lines.push(`     answer kept: ${answer.text}`);
  else lines.push(`     answer dropped (${reasonKind(answer.reason, answer.kind)}): ${answer.text}${answer.reason ? ` — ${answer.reason}` : ""}`);
  return lines;
}
