import { useQuery } from "@tanstack/react-query";
import { api, dataOf } from "../../api/client";

/** The billing catalog and the account's plan; several sections read them, TanStack Query fetches each once. */

export function usePacks() {
  return useQuery({ queryKey: ["billing", "packs"], queryFn: () => dataOf(api.GET("/api/billing/packs")), staleTime: 10 * 60_000 });
}

export function usePlans() {
  return useQuery({ queryKey: ["billing", "plans"], queryFn: () => dataOf(api.GET("/api/billing/plans")), staleTime: 10 * 60_000 });
}

export function useSubscription() {
  return useQuery({ queryKey: ["billing", "subscription"], queryFn: () => dataOf(api.GET("/api/billing/subscription")) });
}

/** Shared with the overview page (same key), so both show the same number. */
export function useBalance() {
  return useQuery({ queryKey: ["balance"], queryFn: () => dataOf(api.GET("/api/credits/balance")) });
}
