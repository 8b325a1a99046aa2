import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { api, errorMessage, session } from "../api/client";

/** Where to go once signed in: `?next=` when it is a path of this dashboard (the OAuth consent page sends people here and back), else the overview. */
function nextPath(next: string | null): string {
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/** Log in, or sign up (`mode`): on success the session opens and the overview (or `?next=`) shows. */
export function SignIn({ mode }: { mode: "login" | "signup" }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const body = { email, password };
    const { data, error, response } = mode === "signup" ? await api.POST("/api/auth/signup", { body }) : await api.POST("/api/auth/login", { body });
    setBusy(false);
    if (!data) return setProblem(errorMessage(error, response));
    session.signedIn(data);
    navigate(nextPath(params.get("next")));
  }

  const title = mode === "signup" ? "Create your account" : "Log in";
  return (
    <main className="narrow">
      <h1>{title}</h1>
      {params.get("reset") === "1" && <p role="status">Your password is changed: log in with the new one.</p>}
      <form onSubmit={submit} aria-label={title}>
        <label>
          Email
          <input type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete={mode === "signup" ? "new-password" : "current-password"}
            required
            minLength={mode === "signup" ? 8 : undefined}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {problem && <p role="alert">{problem}</p>}
        <button type="submit" disabled={busy}>
          {mode === "signup" ? "Sign up" : "Log in"}
        </button>
      </form>
      <p>
        {mode === "signup" ? (
          <Link to={{ pathname: "/login", search: params.get("next") ? `?next=${encodeURIComponent(params.get("next") ?? "")}` : "" }}>I have an account</Link>
        ) : (
          <Link to={{ pathname: "/signup", search: params.get("next") ? `?next=${encodeURIComponent(params.get("next") ?? "")}` : "" }}>Create an account</Link>
        )}
      </p>
      {mode === "login" && (
        <p>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      )}
    </main>
  );
}
