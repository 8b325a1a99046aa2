import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { ApiError, errorMessage } from "../api/client";

type Outcome = { state: "checking" } | { state: "verified" } | { state: "failed"; message: string };

/**
 * Where the emailed verification link lands: it confirms the token through GET /api/auth/verify-email
 * and says how that went. The API answers a success with a redirect, which fetch sees as an
 * "opaqueredirect" when told not to follow it; a used or expired link is a 400 with its message.
 */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const [outcome, setOutcome] = useState<Outcome>({ state: "checking" });
  const asked = useRef(false); // the token is single use: never send it twice
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const token = params.get("token") ?? "";
    void (async () => {
      try {
        const response = await fetch(`/api/auth/verify-email?token=${encodeURIComponent(token)}`, { redirect: "manual" });
        if (response.type === "opaqueredirect" || response.ok) return setOutcome({ state: "verified" });
        setOutcome({ state: "failed", message: errorMessage(ApiError.from(await response.json().catch(() => null), response)) });
      } catch {
        setOutcome({ state: "failed", message: "The service could not be reached. Try the link again in a moment." });
      }
    })();
  }, [params]);

  return (
    <main className="narrow">
      <h1>Email verification</h1>
      {outcome.state === "checking" && <p role="status">Checking your link…</p>}
      {outcome.state === "verified" && (
        <p role="status">
          Your email address is verified. <Link to="/">Go to your dashboard</Link>
        </p>
      )}
      {outcome.state === "failed" && (
        <div role="alert">
          <p>This link did not verify your email: {outcome.message}</p>
          <p className="muted">Links work once and for 48 hours. Log in to see whether your address is already verified.</p>
          <p>
            <Link to="/login">Log in</Link>
          </p>
        </div>
      )}
    </main>
  );
}
