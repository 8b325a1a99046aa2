import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { refreshAdmin } from "./refresh";

/** Answers a ticket; with "send email" the reply also goes to the address the ticket came from. */
export function TicketReplyForm({ ticketId, email }: { ticketId: string; email: string }) {
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [sendEmail, setSendEmail] = useState(true);
  const [done, setDone] = useState<string | null>(null);
  const reply = useMutation({
    mutationFn: (input: { body: string; send_email: boolean }) =>
      dataOf(api.POST("/api/admin/tickets/{id}/reply", { params: { path: { id: ticketId } }, body: input })),
    onSuccess: (_data, input) => {
      setDone(input.send_email ? `Reply saved and emailed to ${email}.` : "Reply saved (not emailed).");
      setBody("");
      void refreshAdmin(queryClient, "tickets", "emails", "stats", "audit");
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim() || reply.isPending) return;
    setDone(null);
    reply.mutate({ body: body.trim(), send_email: sendEmail });
  }
  return (
    <form className="card" aria-label="Reply" onSubmit={submit}>
      <h2>Reply</h2>
      <label>
        Your reply
        <textarea className="prose" rows={6} maxLength={10_000} required value={body} onChange={(event) => setBody(event.target.value)} />
      </label>
      <label className="check">
        <input type="checkbox" checked={sendEmail} onChange={(event) => setSendEmail(event.target.checked)} />
        Send email to {email}
      </label>
      <div>
        <button type="submit" disabled={!body.trim() || reply.isPending}>
          {reply.isPending ? "Sending…" : "Send reply"}
        </button>
      </div>
      {done && <p role="status">{done}</p>}
      <ErrorNotice error={reply.error} />
    </form>
  );
}
