import type { Schemas } from "../../api/client";

export type Category = Schemas["TicketBody"]["category"];

/** Ticket categories as people read them, in the order the form offers them. */
export const CATEGORY_LABELS: Record<Category, string> = {
  technical: "Technical problem",
  billing: "Billing and payments",
  account: "My account",
  feature_request: "Feature request",
  other: "Something else",
};

/** Ticket statuses (decisions: open → answered → closed; reopen sets open). Unknown ones show as sent. */
export const STATUS_LABELS: Record<string, string> = {
  open: "Open",
  answered: "Answered",
  closed: "Closed",
};
