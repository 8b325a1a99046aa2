export * from "./query";
export * from "./topic";
export * from "./subjects";
