import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, errorMessage, type Schemas } from "../api/client";
import { useConfirm } from "../components/ConfirmDialog";
import { actionsColumn, type Column, DataTable } from "../components/DataTable";
import { NewKey } from "../components/NewKey";
import { credits, day, when } from "../format";

/**
 * API keys: list, create (the key shown once, with a copy button), reset, revoke after a
 * confirmation; and below them the agents connected over OAuth (MCP), each with its credit cap and
 * what it spent, revocable the same way.
 */
export function Keys() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [revealed, setRevealed] = useState<Schemas["CreatedKey"] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const keys = useQuery({
    queryKey: ["keys"],
    queryFn: () => dataOf(api.GET("/api/keys")),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["keys"] });
  const { confirm, dialog } = useConfirm();
  const create = useMutation({
    // A blank name asks for the default ("Key <prefix>"); the API refuses a blank one given.
    mutationFn: (keyName: string) => dataOf(api.POST("/api/keys", { body: keyName.trim() ? { name: keyName } : {} })),
    onSuccess: (key) => {
      setRevealed(key);
      setName("");
      void refresh();
    },
    onError: (error) => setProblem(error.message),
  });
  async function resetKey(id: string, keyName: string) {
    const reset = await confirm({
      title: `Reset "${keyName}"?`,
      message: "It gets a new secret, shown once. The current secret stops working at once: every program using it needs the new one.",
      confirmLabel: "Reset",
    });
    if (!reset) return;
    const { data, error, response } = await api.POST("/api/keys/{id}/reset", { params: { path: { id } } });
    if (!data) return setProblem(errorMessage(error, response));
    setRevealed(data);
    void refresh();
  }
  async function revoke(id: string, keyName: string) {
    const revoked = await confirm({ title: `Revoke "${keyName}"?`, message: "Requests with it are refused from now on.", confirmLabel: "Revoke" });
    if (!revoked) return;
    const { error, response } = await api.DELETE("/api/keys/{id}", { params: { path: { id } } });
    if (error) return setProblem(errorMessage(error, response));
    // A revoked key is worth nothing: stop offering it for copying.
    setRevealed((shown) => (shown?.id === id ? null : shown));
    void refresh();
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    create.mutate(name);
  }
  const columns: Column<Schemas["ApiKeyDto"]>[] = [
    { header: "Name", cell: (key) => key.name },
    { header: "Key", cell: (key) => <code>{key.prefix}…</code> },
    { header: "Created", cell: (key) => day(key.created_at) },
    { header: "Last used", cell: (key) => (key.last_used_at ? when(key.last_used_at) : "never") },
    actionsColumn((key) => (
      <>
        <button type="button" aria-label={`Reset ${key.name}`} aria-describedby="key-actions-help" onClick={() => resetKey(key.id, key.name)}>
          Reset
        </button>
        <button type="button" aria-label={`Revoke ${key.name}`} aria-describedby="key-actions-help" onClick={() => revoke(key.id, key.name)}>
          Revoke
        </button>
      </>
    )),
  ];

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <form onSubmit={submit} aria-label="Create a key" className="inline">
        <label>
          Key name
          <input value={name} maxLength={100} placeholder="ci server" onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {problem && <p role="alert">{problem}</p>}
      {revealed && (
        <NewKey plaintext={revealed.plaintext}>
          <button type="button" className="secondary" onClick={() => setRevealed(null)}>
            Done
          </button>
        </NewKey>
      )}
      {keys.isPending && <p role="status">Loading your keys…</p>}
      {keys.isError && <p role="alert">{keys.error.message}</p>}
      <DataTable columns={columns} rows={keys.data} rowKey={(key) => key.id} caption="Your API keys" empty={<p>No keys yet: create one to call the API.</p>} />
      {/* What the row buttons do, said before anyone clicks (and the buttons' accessible description). */}
      {keys.data && keys.data.length > 0 && (
        <p id="key-actions-help" className="muted">
          <strong>Reset</strong> gives a key a new secret (same name; the new one is shown once) and the old secret stops working at once, so every program
          using it needs the new one: do it when a key may have leaked. <strong>Revoke</strong> removes the key: requests with it are refused from then on.
        </p>
      )}
      <ConnectedAgents confirm={confirm} />
      {dialog}
    </section>
  );
}

/** The agents connected over OAuth (MCP): client, when, the cap and what it spent; Revoke refuses its tokens at once. */
function ConnectedAgents({ confirm }: { confirm: ReturnType<typeof useConfirm>["confirm"] }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const connections = useQuery({
    queryKey: ["oauth-connections"],
    queryFn: () => dataOf(api.GET("/api/oauth/connections")),
  });
  async function revoke(id: string, clientName: string) {
    const revoked = await confirm({
      title: `Revoke "${clientName}"?`,
      message: "The agent's access stops at once: its next request is refused, and it must be connected again. Jobs it started go on.",
      confirmLabel: "Revoke",
    });
    if (!revoked) return;
    setProblem(null);
    const { error, response } = await api.DELETE("/api/oauth/connections/{id}", { params: { path: { id } } });
    if (error) return setProblem(errorMessage(error, response));
    void queryClient.invalidateQueries({ queryKey: ["oauth-connections"] });
  }
  const columns: Column<Schemas["OAuthConnection"]>[] = [
    { header: "Agent", cell: (connection) => connection.client_name },
    { header: "Connected", cell: (connection) => day(connection.created_at) },
    { header: "Credit cap", cell: (connection) => credits(connection.credit_cap) },
    {
      header: "Spent",
      cell: (connection) =>
        connection.credits_reserved > 0
          ? `${credits(connection.credits_spent)} (+${credits(connection.credits_reserved)} running)`
          : credits(connection.credits_spent),
    },
    { header: "Last used", cell: (connection) => (connection.last_used_at ? when(connection.last_used_at) : "never") },
    actionsColumn((connection) =>
      connection.revoked_at ? (
        <span className="muted">Revoked {day(connection.revoked_at)}</span>
      ) : (
        <button type="button" aria-label={`Revoke ${connection.client_name}`} onClick={() => revoke(connection.id, connection.client_name)}>
          Revoke
        </button>
      ),
    ),
  ];
  return (
    <section aria-labelledby="agents-title">
      <h2 id="agents-title">Connected agents</h2>
      <p className="muted">
        Agents such as Claude connect to <code style={{ overflowWrap: "anywhere" }}>{`${window.location.origin}/mcp`}</code> over OAuth: you approve each one
        here with a credit cap, the most its research may charge in all.
      </p>
      {problem && <p role="alert">{problem}</p>}
      {connections.isPending && <p role="status">Loading your connected agents…</p>}
      {connections.isError && <p role="alert">{connections.error.message}</p>}
      <DataTable
        columns={columns}
        rows={connections.data?.connections}
        rowKey={(connection) => connection.id}
        caption="Agents connected over OAuth"
        empty={<p>No agent connected yet.</p>}
      />
    </section>
  );
}
