export * from "./analysis";
export * from "./rank";
export * from "./relevance";
export * from "./store";
export * from "./attribution";
