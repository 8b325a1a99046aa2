export * from "./relations";
export * from "./text";
export * from "./finite-verb";
export * from "./number-words";
export * from "./demonyms";
export * from "./compounds";
export * from "./run-in-heading";
