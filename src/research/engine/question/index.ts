export * from "./query";
