export * from "./users";
export * from "./sessions";
export * from "./email-tokens";
export * from "./api-keys";
export * from "./ledger";
export * from "./outbox";
export * from "./corpus";
export * from "./billing";
