import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";
import { NewKey } from "../components/NewKey";
import { quickStartSnippets } from "./quickStartSnippets";
import { SnippetTabs } from "./SnippetTabs";

/**
 * A new account's first step, on the overview: create an API key, then a quick start (curl, the
 * TypeScript and Python SDKs, CLI, MCP config) with that key filled in. The key is shown this once, so the card stays (the
 * overview holds the key) until the person says they are done.
 */
export function FirstStep({
  createdKey,
  onCreated,
  onDone,
}: {
  createdKey: Schemas["CreatedKey"] | null;
  onCreated: (key: Schemas["CreatedKey"]) => void;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("My first key");
  const create = useMutation({
    // A blank name asks for the default ("Key <prefix>"); the API refuses a blank one given.
    mutationFn: (keyName: string) => dataOf(api.POST("/api/keys", { body: keyName.trim() ? { name: keyName } : {} })),
    onSuccess: (key) => {
      onCreated(key);
      void queryClient.invalidateQueries({ queryKey: ["keys"] });
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(name);
  }
  return (
    <section aria-labelledby="first-step-title" className="card first-step">
      <h2 id="first-step-title">Your first step: an API key</h2>
      {createdKey ? (
        <>
          <NewKey plaintext={createdKey.plaintext} />
          <h3>Quick start</h3>
          <p>
            Your key is filled in below, and this is the only time it is shown: copy what you need now. The shell snippets set it as{" "}
            <code>DEEP_RESEARCH_API_KEY</code>, which the SDKs and the CLI read.
          </p>
          <SnippetTabs label="Quick start" snippets={quickStartSnippets({ baseUrl: window.location.origin, apiKey: createdKey.plaintext })} />
          <div className="row">
            <button type="button" className="secondary" onClick={onDone}>
              Done: I have copied my key
            </button>
            <Link to="/playground">Open the playground</Link>
          </div>
        </>
      ) : (
        <>
          <p>Call the service from your code, your terminal or an AI agent with a key. Create one and a quick start follows, with your key filled in.</p>
          <form onSubmit={submit} aria-label="Create your first key" className="inline">
            <label>
              Key name
              <input required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
            </label>
            <button type="submit" disabled={create.isPending}>
              Create your first key
            </button>
          </form>
          <ErrorNotice error={create.error} />
          <p className="muted">
            Or ask a first question in the <Link to="/playground">playground</Link>.
          </p>
        </>
      )}
    </section>
  );
}
