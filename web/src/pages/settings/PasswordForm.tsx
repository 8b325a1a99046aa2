import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";

/** Password change: the current password proves it is the owner; other sessions end, this one stays. */
export function PasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const change = useMutation({
    mutationFn: (body: Schemas["PasswordBody"]) => dataOf(api.PUT("/api/settings/password", { body })),
    onSuccess: () => {
      setCurrent("");
      setNext("");
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    change.mutate({ current_password: current, new_password: next });
  }
  // A 401 here is the current password being wrong (the session itself was refreshed and retried by the client).
  const wrongPassword = change.error instanceof ApiError && change.error.status === 401;
  return (
    <section aria-labelledby="password-title" className="card">
      <h2 id="password-title">Password</h2>
      <form onSubmit={submit} aria-label="Change password">
        <div className="pair">
          <label>
            Current password
            <input type="password" autoComplete="current-password" required value={current} onChange={(event) => setCurrent(event.target.value)} />
          </label>
          <label>
            New password
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              maxLength={128}
              aria-describedby="new-password-hint"
              value={next}
              onChange={(event) => setNext(event.target.value)}
            />
            <span id="new-password-hint" className="hint">
              8 to 128 characters.
            </span>
          </label>
        </div>
        <div className="actions">
          <button type="submit" disabled={change.isPending}>
            {change.isPending ? "Changing…" : "Change password"}
          </button>
          {change.isSuccess && (
            <p role="status" className="saved">
              Your password is changed. Your other sessions are signed out; this one stays signed in.
            </p>
          )}
        </div>
        {wrongPassword ? <p role="alert">Your current password is not right. Nothing was changed.</p> : <ErrorNotice error={change.error} />}
      </form>
    </section>
  );
}
