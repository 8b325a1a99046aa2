import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { useMe } from "../../auth";
import { ErrorNotice } from "../../components/ErrorNotice";
import { CATEGORY_LABELS, type Category } from "./labels";

// The API's limits (docs/decisions.md "Support tickets"), enforced here too so nothing typed is lost to a 400.
const SUBJECT_MAX = 200;
const BODY_MAX = 10_000;

/** A new ticket: topic, one-line subject, the message. On success the form clears and `onSent` refreshes the list. */
export function TicketForm({ onSent }: { onSent: () => void }) {
  const me = useMe();
  const [category, setCategory] = useState<Category | "">("");
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const send = useMutation({
    mutationFn: (ticket: Schemas["TicketBody"]) => dataOf(api.POST("/api/support", { body: ticket })).then(() => ticket),
    onSuccess: () => {
      setCategory("");
      setSubject("");
      setBody("");
      onSent();
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (category === "") return; // the select is required: the browser has already said so
    send.mutate({ category, subject: subject.trim(), body: body.trim() });
  }
  return (
    <form onSubmit={submit} aria-label="New support request" className="card ticket-form">
      <div className="pair">
        <label>
          Topic
          <select required value={category} onChange={(event) => setCategory(event.target.value as Category | "")}>
            <option value="" disabled>
              Choose a topic
            </option>
            {Object.entries(CATEGORY_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Subject
          {/* One line: it becomes the subject of the confirmation and reply emails. */}
          <input required maxLength={SUBJECT_MAX} value={subject} onChange={(event) => setSubject(event.target.value)} />
        </label>
      </div>
      <label>
        Message
        <textarea required rows={6} maxLength={BODY_MAX} value={body} onChange={(event) => setBody(event.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" disabled={send.isPending}>
          {send.isPending ? "Sending…" : "Send request"}
        </button>
      </div>
      {send.isSuccess && (
        <p role="status" className="saved">
          Thank you: we received “{send.data.subject}”. A confirmation is on its way to {me.data?.email ?? "your email address"}, and our reply will appear
          below and in your inbox.
        </p>
      )}
      <ErrorNotice error={send.error} />
    </form>
  );
}
