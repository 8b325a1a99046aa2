export * from "./query";
export * from "./hops";
export * from "./comparison";
