export * from "./query";
export * from "./hops";
export * from "./comparison";
export * from "./topic";
export * from "./subjects";
