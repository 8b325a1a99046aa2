import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { api, dataOf, session } from "./api/client";

/** Whether a session is open: "unknown" while a reload trades its refresh token for a new pair. */
export function useSession(): "signed-in" | "signed-out" | "unknown" {
  const token = useSyncExternalStore(session.subscribe, () => session.accessToken);
  const [resuming, setResuming] = useState(() => token === null && session.hasRefreshToken);
  useEffect(() => {
    if (!resuming) return;
    void session.refresh().finally(() => setResuming(false));
  }, [resuming]);
  if (token) return "signed-in";
  return resuming ? "unknown" : "signed-out";
}

/** The signed-in user (GET /api/auth/me): name, email, verification, marketing choice, admin flag. */
export function useMe(enabled = true) {
  return useQuery({ queryKey: ["me"], queryFn: () => dataOf(api.GET("/api/auth/me")), staleTime: 60_000, enabled });
}
