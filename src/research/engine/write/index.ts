/** Writing: the brief (extractive, or a model's checked against the evidence), its citations, and the typed output. */
export * from "./brief";
export * from "./brief-format";
export * from "./citations";
export * from "./llm-synthesis";
export * from "./typed/output";
export * from "./coverage";
