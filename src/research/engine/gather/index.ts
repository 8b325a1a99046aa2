/** Gathering: the waves of searches and reads inside the budget, and the choice of pages to read. */
export { gatherEvidence } from "./waves";
export { canonicalUrl, chooseSources, type Candidate, type QueryHits } from "./select";
export { KnownPages, type KnownPage, urlsInText } from "./known-urls";
