/** A ticket's status as a tag: open ones (waiting for us) stand out. */
export function TicketStatus({ status }: { status: string }) {
  return <span className={`tag ${status === "open" ? "warn" : status === "answered" ? "good" : ""}`}>{status}</span>;
}

export const TICKET_STATUSES = ["open", "answered", "closed"] as const;
export const TICKET_CATEGORIES = ["billing", "technical", "account", "feature_request", "other"] as const;

/** A category as people read it: "feature request". */
export function categoryName(category: string): string {
  return category.replace(/_/g, " ");
}
