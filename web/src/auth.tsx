import { useEffect, useState, useSyncExternalStore } from "react";
import { session } from "./api/client";

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
