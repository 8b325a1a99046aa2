import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf } from "../../api/client";
import { useConfirm } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { credits } from "../../format";
import { useIdempotencyKey } from "./idempotency";
import { refreshAdmin } from "./refresh";

/**
 * Refunds credits of a finished job to its owner, after a confirmation. The API holds the limit
 * (at most what the job charged, minus earlier refunds) and says so when it is passed.
 */
export function RefundForm({ jobId, charged, email }: { jobId: string; charged: number; email: string }) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const idempotency = useIdempotencyKey();
  const { confirm, dialog } = useConfirm();
  const refund = useMutation({
    mutationFn: (body: { credits: number; note: string; idempotency_key: string }) =>
      dataOf(api.POST("/api/admin/jobs/{id}/refund", { params: { path: { id: jobId } }, body })),
    onSuccess: (_data, body) => {
      setDone(`${credits(body.credits)} credits refunded to ${email}.`);
      setAmount("");
      setNote("");
      idempotency.renew();
      void refreshAdmin(queryClient, "jobs", "users", "stats", "audit");
    },
  });
  const value = Number(amount);
  const valid = Number.isInteger(value) && value >= 1 && value <= charged && note.trim().length > 0;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || refund.isPending) return;
    const confirmed = await confirm({
      title: `Refund ${credits(value)} credits to ${email}?`,
      message: "This adds them to their balance.",
      confirmLabel: "Refund",
    });
    if (!confirmed) return;
    setDone(null);
    refund.mutate({ credits: value, note: note.trim(), idempotency_key: idempotency.current });
  }
  // Another amount or note is another refund: it needs its own key.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    idempotency.renew();
    setDone(null);
  };
  return (
    <form className="card" aria-label="Refund" onSubmit={submit}>
      <h2>Refund</h2>
      <p className="muted">This job charged {credits(charged)} credits; earlier refunds of it count against that.</p>
      <div className="fields">
        <label>
          Credits to refund
          <input
            type="number"
            inputMode="numeric"
            step={1}
            min={1}
            max={charged}
            required
            value={amount}
            onChange={(event) => edit(setAmount)(event.target.value)}
          />
        </label>
        <label className="grow">
          Note
          <input required maxLength={500} value={note} placeholder="why the refund" onChange={(event) => edit(setNote)(event.target.value)} />
        </label>
      </div>
      <div>
        <button type="submit" className="danger" disabled={!valid || refund.isPending}>
          {refund.isPending ? "Refunding…" : "Refund credits"}
        </button>
      </div>
      {done && <p role="status">{done}</p>}
      <ErrorNotice error={refund.error} />
      {dialog}
    </form>
  );
}
