export * from "./relations";
export * from "./text";
