export * from "./query";
export * from "./hops";
