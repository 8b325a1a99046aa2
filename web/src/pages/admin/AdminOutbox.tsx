import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";

/** How the email's delivery went: recorded only, sent, or failed (and whether the sweep tries again). */
function delivery(email: Schemas["AdminEmailRow"]): string {
  const attempts = `${email.attempts} ${email.attempts === 1 ? "attempt" : "attempts"}`;
  if (email.delivery_status === "outbox") return "recorded only (no email provider)";
  if (email.delivery_status === "sent") return email.attempts > 1 ? `sent after ${attempts}` : "sent";
  return email.next_attempt_at ? `failed after ${attempts}, tried again ${when(email.next_attempt_at)}` : `failed after ${attempts}`;
}

/** Every email the service sent, newest first, filtered by recipient; each opens to its text. */
export function AdminOutbox() {
  const [draft, setDraft] = useState("");
  const [to, setTo] = useState("");
  const page = usePage();
  const emails = useQuery({
    queryKey: ["admin", "emails", to, page.offset],
    queryFn: () => dataOf(api.GET("/api/admin/emails", { params: { query: { ...page.query, ...(to ? { to } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  function filter(event: FormEvent) {
    event.preventDefault();
    setTo(draft.trim());
    page.reset();
  }
  const shown = emails.data ? pageOf(emails.data) : null;
  return (
    <section aria-labelledby="admin-outbox-title">
      <h1 id="admin-outbox-title">Outbox</h1>
      <form className="inline" aria-label="Filter emails" onSubmit={filter}>
        <label>
          Recipient
          <input type="email" value={draft} placeholder="exact address" onChange={(event) => setDraft(event.target.value)} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {emails.isPending && <Loading what="the outbox" />}
      <ErrorNotice error={emails.error} />
      {shown && shown.rows.length === 0 && <p className="card">{to ? `No email was sent to ${to}.` : "No email sent yet."}</p>}
      {shown && shown.rows.length > 0 && (
        <ul className="emails" aria-label="Emails, newest first">
          {shown.rows.map((email) => (
            <li key={email.id} className="card">
              <details>
                <summary>
                  <span className="subject wrap">{email.subject}</span>
                  <span className="muted small wrap">
                    to {email.to} · {when(email.created_at)} · {delivery(email)}
                  </span>
                  {email.delivery_error && <span className="small wrap">{email.delivery_error}</span>}
                </summary>
                <pre className="email-text">{email.text}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
      {shown && <Pager page={page} hasNext={shown.hasNext} what="emails" />}
    </section>
  );
}
