export * from "./query";
export * from "./entities";
export * from "./answer-type";
export * from "./hops";
export * from "./comparison";
export * from "./topic";
export * from "./subjects";
export * from "./descriptions";
