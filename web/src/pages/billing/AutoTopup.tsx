import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, usdFromCentsCompact } from "../../format";
import { usePacks } from "./queries";

const KEY = ["billing", "auto-topup"];

/** Auto top-up: buy a chosen pack with the saved card whenever the balance falls below a threshold. */
export function AutoTopup() {
  const settings = useQuery({ queryKey: KEY, queryFn: () => dataOf(api.GET("/api/billing/auto-topup")) });
  const packs = usePacks();
  return (
    <section aria-labelledby="auto-topup-title">
      <h2 id="auto-topup-title">Auto top-up</h2>
      <p className="muted">
        Never run dry in the middle of a job: when your balance falls below the threshold, the pack you choose is bought with the card saved at your last pack
        purchase.
      </p>
      {settings.data && !settings.data.card_on_file && (
        <p className="card notice-warn" role="note" aria-label="No card yet">
          No card is saved yet: you have not bought anything, so auto top-up has nothing to charge. You can set it up now; it starts buying once you have bought
          a pack with a card (its card is the one top-ups use).
        </p>
      )}
      {(settings.isPending || packs.isPending) && <Loading what="your auto top-up settings" />}
      <ErrorNotice error={settings.error ?? packs.error} />
      {/* The form starts from the saved settings once, and is not reset by later refetches while someone edits it. */}
      {settings.data && packs.data && <AutoTopupForm saved={settings.data} packs={packs.data} />}
    </section>
  );
}

function AutoTopupForm({ saved, packs }: { saved: Schemas["AutoTopupSettings"]; packs: Schemas["PackDto"][] }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [threshold, setThreshold] = useState(String(saved.threshold_credits));
  const [packId, setPackId] = useState(packs.some((pack) => pack.id === saved.pack_id) ? saved.pack_id : (packs[0]?.id ?? ""));
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Schemas["AutoTopupBody"]) => dataOf(api.PUT("/api/billing/auto-topup", { body })).then(() => body),
    onMutate: () => setConfirmation(null),
    onSuccess: (body) => {
      queryClient.setQueryData(KEY, { ...saved, ...body });
      setConfirmation(describe(body, packs, saved.card_on_file));
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ enabled, threshold_credits: Number(threshold), pack_id: packId });
  }
  return (
    <form onSubmit={submit} aria-label="Auto top-up" className="card auto-topup">
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        Top up automatically
      </label>
      <div className="fields">
        <label>
          When the balance falls below (credits)
          {/* 0 is accepted by the API but would never trigger, so an enabled top-up needs at least 1. */}
          <input
            type="number"
            inputMode="numeric"
            required
            min={enabled ? 1 : 0}
            max={10_000_000}
            step={1}
            value={threshold}
            onChange={(event) => setThreshold(event.target.value)}
          />
        </label>
        <label>
          Buy this pack
          <select value={packId} onChange={(event) => setPackId(event.target.value)}>
            {packs.map((pack) => (
              <option key={pack.id} value={pack.id}>
                {pack.name}: {credits(pack.credits)} credits for {usdFromCentsCompact(pack.price_cents)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {saved.in_flight && <p>A top-up payment is under way; its credits arrive when the processor confirms it.</p>}
      <div>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save auto top-up"}
        </button>
      </div>
      {confirmation && (
        <p role="status" className="saved">
          {confirmation}
        </p>
      )}
      <ErrorNotice error={save.error} />
    </form>
  );
}

/** What was saved, in words: the rule as it will now be applied (and, without a card, that it cannot be yet). */
function describe(body: Schemas["AutoTopupBody"], packs: Schemas["PackDto"][], cardOnFile: boolean): string {
  if (!body.enabled) return "Saved: auto top-up is off.";
  const pack = packs.find((candidate) => candidate.id === body.pack_id);
  const what = pack ? `the ${pack.name} pack (${credits(pack.credits)} credits for ${usdFromCentsCompact(pack.price_cents)})` : "the chosen pack";
  const when = `when your balance falls below ${credits(body.threshold_credits)} credits`;
  if (!cardOnFile)
    return `Saved, but there is no card to charge yet: nothing is bought until you buy a pack with a card. From then on, ${when}, ${what} is bought with that card.`;
  return `Saved: ${when}, ${what} is bought with the card saved at your last pack purchase.`;
}
