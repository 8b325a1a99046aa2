import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { credits, signedCredits } from "../../format";
import { useIdempotencyKey } from "./idempotency";
import { refreshAdmin } from "./refresh";

/** Adds or removes credits with a note (an admin_adjustment ledger entry); never twice for one submission. */
export function CreditAdjustForm({ userId, email }: { userId: string; email: string }) {
  const queryClient = useQueryClient();
  const [delta, setDelta] = useState("");
  const [note, setNote] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const idempotency = useIdempotencyKey();
  const adjust = useMutation({
    mutationFn: (body: { delta_credits: number; note: string; idempotency_key: string }) =>
      dataOf(api.POST("/api/admin/users/{id}/credits", { params: { path: { id: userId } }, body })),
    onSuccess: (result, body) => {
      setDone(`${signedCredits(body.delta_credits)} credits applied to ${email}. The balance is now ${credits(result.balance_after)} credits.`);
      setDelta("");
      setNote("");
      idempotency.renew();
      void refreshAdmin(queryClient, "users", "stats", "audit");
    },
  });
  const amount = Number(delta);
  const valid = Number.isInteger(amount) && amount !== 0 && Math.abs(amount) <= 1_000_000 && note.trim().length > 0;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || adjust.isPending) return;
    setDone(null);
    adjust.mutate({ delta_credits: amount, note: note.trim(), idempotency_key: idempotency.current });
  }
  // A changed amount or note is another adjustment: it needs its own key.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    idempotency.renew();
    setDone(null);
  };
  return (
    <form className="card" aria-label="Adjust credits" onSubmit={submit}>
      <h2>Adjust credits</h2>
      <div className="fields">
        <label>
          Credits to add (negative to remove)
          <input
            type="number"
            inputMode="numeric"
            step={1}
            min={-1_000_000}
            max={1_000_000}
            required
            value={delta}
            onChange={(event) => edit(setDelta)(event.target.value)}
          />
        </label>
        <label className="grow">
          Note (kept on the ledger entry)
          <input required maxLength={500} value={note} placeholder="goodwill for ticket #…" onChange={(event) => edit(setNote)(event.target.value)} />
        </label>
      </div>
      <div>
        <button type="submit" disabled={!valid || adjust.isPending}>
          {adjust.isPending ? "Applying…" : "Apply adjustment"}
        </button>
      </div>
      {done && <p role="status">{done}</p>}
      <ErrorNotice error={adjust.error} />
    </form>
  );
}
