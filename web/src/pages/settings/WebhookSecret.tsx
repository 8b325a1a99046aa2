import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import { useConfirm } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";

const KEY = ["webhook-secret"];
const MASK = "•".repeat(32);

/**
 * The secret that signs this account's webhook deliveries: masked until revealed (screens get
 * shared), copyable, and rotatable after a warning, since the old secret stops verifying at once.
 */
export function WebhookSecret() {
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState(false);
  const [rotated, setRotated] = useState(false);
  const { confirm, dialog } = useConfirm();
  const secret = useQuery({ queryKey: KEY, queryFn: () => dataOf(api.GET("/api/settings/webhook-secret")) });
  const rotate = useMutation({
    mutationFn: () => dataOf(api.POST("/api/settings/webhook-secret/rotate")),
    onSuccess: (fresh) => {
      queryClient.setQueryData(KEY, fresh);
      setRevealed(true); // the new secret has to be copied to the receiver now
      setCopied(false);
      setRotated(true);
    },
  });
  const copy = useMutation({
    mutationFn: (text: string) => navigator.clipboard.writeText(text),
    onSuccess: () => setCopied(true),
  });
  const [testUrl, setTestUrl] = useState("");
  const test = useMutation({ mutationFn: (url: string) => dataOf(api.POST("/api/settings/webhook-test", { body: { url } })) });
  async function confirmRotate() {
    const confirmed = await confirm({
      title: "Rotate the webhook signing secret?",
      message: "Deliveries from now on are signed with a new secret, and the current one stops verifying at once: update your receiver right away.",
      confirmLabel: "Rotate",
    });
    if (confirmed) rotate.mutate();
  }

  return (
    <section aria-labelledby="webhook-title" className="card">
      <h2 id="webhook-title">Webhook signing secret</h2>
      <p className="muted">
        Every webhook delivery carries <code>X-Service-Signature: sha256=…</code>, the HMAC-SHA256 of the raw body with this secret, and the Standard Webhooks
        headers (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Check one before trusting a delivery.
      </p>
      {secret.isPending && <Loading what="your webhook secret" />}
      <ErrorNotice error={secret.error} />
      {secret.data && (
        <>
          <code className="secret" aria-label="Webhook signing secret">
            {revealed ? secret.data.secret : MASK}
          </code>
          <div className="actions">
            <button type="button" className="secondary" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
              {revealed ? "Hide" : "Reveal"}
            </button>
            <button type="button" className="secondary" onClick={() => copy.mutate(secret.data.secret)}>
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" className="danger" disabled={rotate.isPending} onClick={confirmRotate}>
              {rotate.isPending ? "Rotating…" : "Rotate"}
            </button>
          </div>
        </>
      )}
      {rotated && (
        <p role="status" className="saved">
          A new secret is in use: the old one no longer verifies. Update your webhook receiver with the secret shown above.
        </p>
      )}
      <ErrorNotice error={rotate.error ?? copy.error} />
      <form
        className="actions"
        onSubmit={(event) => {
          event.preventDefault();
          test.mutate(testUrl);
        }}
      >
        <label>
          Receiver URL
          <input type="url" required value={testUrl} placeholder="https://example.com/hooks/research" onChange={(event) => setTestUrl(event.target.value)} />
        </label>
        <button type="submit" className="secondary" disabled={test.isPending}>
          {test.isPending ? "Sending…" : "Send a test event"}
        </button>
      </form>
      {/* A receiver that refused the event (a 401, a timeout) is a failure, shown as one, never in the success green. */}
      {test.data &&
        (test.data.error === null ? (
          <p role="status" className="saved">
            Your endpoint answered {test.data.status_code}.
          </p>
        ) : (
          <p role="alert">The test event failed: {test.data.error}. A receiver must answer 2xx to accept an event.</p>
        ))}
      <ErrorNotice error={test.error} />
      {dialog}
    </section>
  );
}
