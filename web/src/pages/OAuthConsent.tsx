import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router-dom";
import { api, dataOf, errorMessage } from "../api/client";
import { useSession } from "../auth";
import { credits, usdFromCents } from "../format";

/** What a new connection may charge unless the customer says otherwise: a few standard jobs. */
const DEFAULT_CAP = 500;

/** What each scope lets the agent do, as the page says it. */
const SCOPE_MEANING: Record<string, string> = {
  research:
    "Run research for this account (charged to its credits) and read the research jobs it started. Nothing else: not your balance, keys, billing or other jobs.",
};

/**
 * /oauth/consent?request=…: an agent (an MCP client such as Claude) asks to connect to the account
 * over OAuth. The page shows which account, which agent and where the access goes, what it may do,
 * and asks for the connection's credit cap; Approve or Deny answers through the API, which says
 * where to send the browser (back to the agent). Signed out: log in first, then back here.
 */
export function OAuthConsent() {
  const state = useSession();
  const location = useLocation();
  if (state === "unknown") return <p role="status">Resuming your session…</p>;
  if (state === "signed-out") return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <ConsentForm />;
}

function ConsentForm() {
  const [params] = useSearchParams();
  const id = params.get("request") ?? "";
  const [cap, setCap] = useState(String(DEFAULT_CAP));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const request = useQuery({
    queryKey: ["oauth-request", id],
    queryFn: () => dataOf(api.GET("/api/oauth/requests/{id}", { params: { path: { id } } })),
    enabled: id !== "",
    retry: false,
  });

  async function answer(decision: "approve" | "deny") {
    setProblem(null);
    const creditCap = Number(cap);
    if (decision === "approve" && (!Number.isInteger(creditCap) || creditCap < 1))
      return setProblem("Set a credit cap: a whole number of credits, at least 1.");
    setBusy(true);
    const { data, error, response } = await api.POST("/api/oauth/requests/{id}/complete", {
      params: { path: { id } },
      body: decision === "approve" ? { decision, credit_cap: creditCap } : { decision },
    });
    if (!data) {
      setBusy(false);
      return setProblem(errorMessage(error, response));
    }
    window.location.assign(data.redirect_to);
  }

  function approve(event: FormEvent) {
    event.preventDefault();
    void answer("approve");
  }

  if (!id) return <Problem message="This address has no authorization request. Start connecting from the agent again." />;
  if (request.isPending) return <p role="status">Loading the request…</p>;
  if (request.isError) return <Problem message={request.error.message} />;
  const details = request.data;
  const capNumber = Number(cap);
  return (
    <main className="narrow">
      <h1>Connect {details.client_name} to your account?</h1>
      <dl aria-label="The request">
        <dt>Account</dt>
        <dd>{details.account_email}</dd>
        <dt>Agent</dt>
        <dd>
          {details.client_name} <span className="muted">(the name it gave itself; not verified)</span>
          {details.client_uri && (
            <>
              {" · "}
              <span>{details.client_uri}</span>
            </>
          )}
        </dd>
        <dt>Access is sent to</dt>
        <dd>
          <strong>{details.redirect_host}</strong> <code>{details.redirect_uri}</code>
        </dd>
        <dt>It may</dt>
        <dd>
          <ul>
            {details.scope.map((scope) => (
              <li key={scope}>{SCOPE_MEANING[scope] ?? scope}</li>
            ))}
          </ul>
        </dd>
      </dl>
      {details.redirect_is_loopback && (
        <p role="note">
          <strong>This sends access to a program on this computer.</strong> Continue only if you just started connecting from it.
        </p>
      )}
      <form onSubmit={approve} aria-label="Approve the connection">
        <label>
          Credit cap for this connection
          <input type="number" inputMode="numeric" min={1} step={1} required value={cap} onChange={(event) => setCap(event.target.value)} />
        </label>
        <p className="muted">
          The most its research may charge in all
          {Number.isInteger(capNumber) && capNumber > 0 ? `: ${credits(capNumber)} credits (${usdFromCents(capNumber)})` : ""}. A job that would pass it is
          refused. You can revoke the connection at any time on the API keys page.
        </p>
        {problem && <p role="alert">{problem}</p>}
        <p style={{ display: "flex", gap: "0.5rem" }}>
          <button type="submit" disabled={busy}>
            Approve
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => void answer("deny")}>
            Deny
          </button>
        </p>
      </form>
    </main>
  );
}

function Problem({ message }: { message: string }) {
  return (
    <main className="narrow">
      <h1>Connect an agent</h1>
      <p role="alert">{message}</p>
      <p>
        <Link to="/keys">Your API keys and connected agents</Link>
      </p>
    </main>
  );
}
