import type { Passage } from "../../evidence";
import type { BriefWriter } from "../brief-writer";

/** A claim that checked, where the model put it. */
export interface KeptClaim {
  text: string;
  passages: Passage[];
  heading: string | null;
  bullet: boolean;
  /** In the model's opening (before its first heading or bullet). */
  opening: boolean;
}

/** A sentence that leans on the one before it for its subject. */
const DANGLING = /^(he|she|it|they|his|her|its|their|him|them|this|these|those|the latter|the former)\b/i;

export const leansOnPrevious = (text: string) => DANGLING.test(text.trim());

/**
 * Lays the kept claims out as the model ordered them (revise, never mangle): the brief
 * always opens with a full statement (when the model's opening was withdrawn, or starts by leaning
 * on a withdrawn sentence, the first kept claim that names its subject opens instead); a heading
 * is written only with lines under it (BriefWriter skips an empty block); a list of one is written
 * as a sentence, not an orphaned bullet. In a report, what the model wrote under no heading after
 * its opening is under "Findings".
 */
export function layOut(writer: BriefWriter, claims: KeptClaim[], report: boolean): void {
  let opening = claims.filter((claim) => claim.opening);
  if (opening.length === 0 || leansOnPrevious(opening[0]!.text)) {
    const opener = claims.find((claim) => !leansOnPrevious(claim.text));
    if (opener) opening = [opener, ...opening.filter((claim) => claim !== opener)];
  }
  const first = writer.paragraph();
  for (const claim of opening) first.add(claim.text, claim.passages);

  for (const block of blocksOf(
    claims.filter((claim) => !opening.includes(claim)),
    report,
  )) {
    const bullets = block.bullet && block.claims.length > 1;
    const written =
      block.heading === null
        ? bullets
          ? writer.group(null)
          : writer.paragraph()
        : block.section
          ? writer.section(block.heading, bullets)
          : writer.group(block.heading, bullets);
    for (const claim of block.claims) written.add(claim.text, claim.passages);
  }
}

interface Block {
  heading: string | null;
  section: boolean;
  bullet: boolean;
  claims: KeptClaim[];
}

/** Consecutive claims under the same heading and of the same kind (bullets or sentences). */
function blocksOf(claims: KeptClaim[], report: boolean): Block[] {
  const blocks: Block[] = [];
  for (const claim of claims) {
    const heading = claim.heading ?? (report ? "Findings" : null);
    const last = blocks.at(-1);
    if (last && last.heading === heading && last.bullet === claim.bullet) last.claims.push(claim);
    else blocks.push({ heading, section: report && heading !== null, bullet: claim.bullet, claims: [claim] });
  }
  return blocks;
}
