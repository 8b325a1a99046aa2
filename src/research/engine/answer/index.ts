export * from "./compare";
export * from "./direct";
export * from "./extract";
