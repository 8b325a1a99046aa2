import { describedEntity, resolveChain } from "../answer";
import type { Evidence } from "../evidence";
import { type HopAttribute, type QueryAnalysis, substitutedQuestion } from "../question";

/**
 * What the next wave must search for a hop chain (or a described entity, below): the page of the hop still unresolved (the
 * anchor when its page was not read, else the entity the last sentence named). A chain that
 * closed needs nothing more; one whose next hop no sentence names cannot be pushed by search.
 * A comparison has one chain per side ("the director of film A", "the director of film B").
 */
export function nextHops(query: QueryAnalysis, evidence: Evidence): { targets: string[]; closed: boolean } {
  if (query.hops) {
    const resolved = resolveChain(query.hops, evidence);
    if (resolved.answer) return { targets: [], closed: true };
    return { targets: resolved.missing ? [resolved.missing] : [], closed: false };
  }
  // A described entity: its page while a hop is missing, then the question asked of it by name
  // ("the waterfall in Zimbabwe"), whose answer may stand on a page of its own ("Victoria Falls"),
  // and the entity's own page when none was read ("Mississippi": its history says when it became a state).
  if (query.description) {
    const { entity, steps, missing } = describedEntity(query.description, evidence);
    if (missing) return { targets: [missing], closed: false };
    const asked = substitutedQuestion(query.description, entity).replace(/\?$/, "");
    const ownPage = steps.length < 2 || steps[steps.length - 1]!.doc !== null;
    return { targets: ownPage ? [asked] : [asked, entity], closed: false };
  }
  if (query.comparison) {
    const attribute: HopAttribute =
      query.comparison.fact === "birth_date" || query.comparison.fact === "death_date" || query.comparison.fact === "nationality"
        ? query.comparison.fact
        : "identity";
    const sides = query.comparison.sides.map((side) =>
      resolveChain({ anchor: side.name, relations: side.relations, attribute, subjectPhrase: side.name }, evidence),
    );
    const targets = sides.flatMap((side) => (side.missing ? [side.missing] : []));
    return { targets, closed: sides.every((side) => side.answer !== null) };
  }
  return { targets: [], closed: false };
}
