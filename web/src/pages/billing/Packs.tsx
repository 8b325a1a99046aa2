import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, usdFromCentsCompact, usdPerCredit } from "../../format";
import { PaymentProblem } from "./PaymentProblem";
import { usePacks } from "./queries";
import type { PaymentRedirect } from "./usePaymentRedirect";

/** Credit packs (pay as you go): each one's price, credits and price per credit, bought through the processor's checkout. */
export function Packs({ payments }: { payments: PaymentRedirect }) {
  const packs = usePacks();
  const buy = (pack: Schemas["PackDto"]) =>
    payments.start("packs", `pack:${pack.id}`, () => dataOf(api.POST("/api/billing/checkout", { body: { pack_id: pack.id } })));
  return (
    <section aria-labelledby="packs-title">
      <h2 id="packs-title">Credit packs</h2>
      <p className="muted">Pay as you go: a one-off payment, no subscription.</p>
      {packs.isPending && <Loading what="the packs" />}
      <ErrorNotice error={packs.error} />
      {packs.data && (
        <ul className="offers">
          {packs.data.map((pack) => (
            <li key={pack.id}>
              <article className="card offer" aria-labelledby={`pack-${pack.id}`}>
                <h3 id={`pack-${pack.id}`}>{pack.name}</h3>
                <p className="price">{usdFromCentsCompact(pack.price_cents)}</p>
                <p>
                  <strong>{credits(pack.credits)} credits</strong>
                  <br />
                  <span className="muted">{usdPerCredit(pack.price_cents, pack.credits)} per credit</span>
                </p>
                <p className="muted blurb">{pack.blurb}</p>
                <button type="button" disabled={payments.pendingKey !== null} onClick={() => buy(pack)}>
                  {payments.pendingKey === `pack:${pack.id}` ? "Opening checkout…" : `Buy ${pack.name}`}
                </button>
              </article>
            </li>
          ))}
        </ul>
      )}
      <PaymentProblem payments={payments} origin="packs" />
    </section>
  );
}
