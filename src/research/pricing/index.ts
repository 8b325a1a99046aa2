/**
 * The one place for prices and charges:
 * - `ops.ts`: what each metered operation costs, with which the engine meters every job;
 * - `modes.ts`: the modes, their prices and limits, the reservation and metered credits;
 * - `budgets.ts`: a job's envelope (ResearchBudgets) for its mode and the request's overrides;
 * - `follow-up.ts`: what a follow-up costs and reserves;
 * - `charge.ts`: what a finished job pays and why (`credits_charged`, `charge_basis`).
 *
 * Units: one credit is 0.01 USD. Operation prices are in credits (fractional), costs in USD.
 */
export * from "./ops";
export * from "./modes";
export * from "./budgets";
export * from "./follow-up";
export * from "./charge";
