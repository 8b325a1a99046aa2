/** Planning: the searches of wave 1, and after each wave the follow-ups that target what is still missing. */
export { followUpQueries, planBranches } from "./queries";
export { nextHops } from "./hops";
export { comparisonBranches } from "./comparison";
