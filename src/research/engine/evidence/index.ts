export * from "./analysis";
export * from "./rank";
export * from "./relevance";
export * from "./store";
export * from "./page-metadata";
export * from "./titles";
export * from "./attribution";
