import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { api, errorMessage } from "../api/client";

/** Forgot password: asks for the email and always answers the same (the API never says whether an account exists). */
export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const { error, response } = await api.POST("/api/auth/forgot-password", { body: { email } });
    if (error) return setProblem(errorMessage(error, response));
    setSent(true);
  }
  return (
    <main className="narrow">
      <h1>Reset your password</h1>
      {sent ? (
        <p role="status">If an account uses {email}, a link to reset its password is on its way.</p>
      ) : (
        <form onSubmit={submit} aria-label="Reset your password">
          <label>
            Email
            <input type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
          </label>
          {problem && <p role="alert">{problem}</p>}
          <button type="submit">Send the link</button>
        </form>
      )}
      <p>
        <Link to="/login">Back to log in</Link>
      </p>
    </main>
  );
}

/** The page the emailed link opens (/reset-password?token=…): a new password, then log in. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const token = params.get("token") ?? "";
  async function submit(event: FormEvent) {
    event.preventDefault();
    const { error, response } = await api.POST("/api/auth/reset-password", { body: { token, password } });
    if (error) return setProblem(errorMessage(error, response));
    navigate("/login?reset=1");
  }
  return (
    <main className="narrow">
      <h1>Choose a new password</h1>
      {!token && <p role="alert">This link has no token: open the link from the email again.</p>}
      <form onSubmit={submit} aria-label="Choose a new password">
        <label>
          New password
          <input type="password" autoComplete="new-password" required minLength={10} value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        {problem && <p role="alert">{problem}</p>}
        <button type="submit" disabled={!token}>
          Set the new password
        </button>
      </form>
    </main>
  );
}
