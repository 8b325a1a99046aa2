export * from "./compare";
export * from "./direct";
export * from "./extract";
export * from "./short-answer";
export * from "./bridge";
export * from "./facts";
export * from "./chain";
export * from "./templates";
