import type { QueryClient } from "@tanstack/react-query";

/**
 * The admin queries a mutation can make stale, by area. Every admin query key starts with
 * ["admin", area, ...], so invalidating an area refreshes its lists and details together.
 */
export type AdminArea = "stats" | "users" | "jobs" | "tickets" | "events" | "emails" | "audit";

/** Refetches the given areas (and the signed-in account's own balance, which an adjustment may change). */
export function refreshAdmin(queryClient: QueryClient, ...areas: AdminArea[]): Promise<unknown> {
  return Promise.all([
    ...areas.map((area) => queryClient.invalidateQueries({ queryKey: ["admin", area] })),
    queryClient.invalidateQueries({ queryKey: ["balance"] }),
  ]);
}
