import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { CollectionChoice } from "../components/CollectionChoice";
import { useConfirm } from "../components/ConfirmDialog";
import { ErrorNotice } from "../components/ErrorNotice";
import { Loading } from "../components/Loading";
import { Pager, pageOf, usePage } from "../components/Pager";
import { when } from "../format";
import { followDelay, isUnsettled } from "./monitors/follow";

type Monitor = Schemas["Monitor"];
type MonitorRun = Schemas["MonitorRun"];
type Mode = Schemas["MonitorCreate"]["mode"];

/** Why a monitor is paused, in words: the API's `paused_reason` codes are not for people. */
const PAUSE_REASONS: Record<string, string> = {
  paused_by_owner: "by you",
  insufficient_credits: "your balance did not cover a run; nothing was charged",
  email_not_verified: "your email address is not verified yet",
  account_suspended: "the account is suspended",
  not_found: "a collection it searches is gone",
  invalid_request: "its request was refused",
};
const pauseText = (reason: string | null) => (reason ? (PAUSE_REASONS[reason] ?? reason) : "by you");

const scheduleText = (monitor: Monitor) => (monitor.schedule.every ? `every ${monitor.schedule.every}` : `cron ${monitor.schedule.cron} (UTC)`);

/** One run's diff, whole: sources added and gone, the short answer before and now, claims added and withdrawn. */
function RunDiff({ run }: { run: MonitorRun }) {
  if (run.status === "running") return <span className="muted">running…</span>;
  if (!run.diff) return <span className="muted">{run.status === "succeeded" ? "baseline (first run)" : `no diff (${run.status})`}</span>;
  const diff = run.diff;
  if (!diff.changed) return <span>nothing changed</span>;
  return (
    <dl className="monitor-diff">
      {diff.sources_added.length > 0 && (
        <>
          <dt>Sources added</dt>
          {diff.sources_added.map((source) => (
            <dd key={source.url}>
              + {source.title} <span className="muted">{source.url}</span>
            </dd>
          ))}
        </>
      )}
      {diff.sources_removed.length > 0 && (
        <>
          <dt>Sources gone</dt>
          {diff.sources_removed.map((source) => (
            <dd key={source.url}>
              − {source.title} <span className="muted">{source.url}</span>
            </dd>
          ))}
        </>
      )}
      {diff.answer.changed && (
        <>
          <dt>Answer</dt>
          <dd>
            was <q>{diff.answer.previous ?? "none"}</q>, now <q>{diff.answer.current ?? "none"}</q>
          </dd>
        </>
      )}
      {diff.claims_added.length > 0 && (
        <>
          <dt>Claims added</dt>
          {diff.claims_added.map((claim) => (
            <dd key={claim}>+ {claim}</dd>
          ))}
        </>
      )}
      {diff.claims_withdrawn.length > 0 && (
        <>
          <dt>Claims withdrawn</dt>
          {diff.claims_withdrawn.map((claim) => (
            <dd key={claim}>− {claim}</dd>
          ))}
        </>
      )}
    </dl>
  );
}

/**
 * A monitor's runs, newest first, each with its job and diff. While a run is still going the list
 * is asked again (2 s, then longer each time, up to 30 s: `followDelay`) until none is; then the
 * monitor is read again too (its next run, or a pause the run caused). Nothing is polled while every
 * run is settled, and the timer goes with the component (React Query clears it on unmount).
 */
function Runs({ monitor }: { monitor: Monitor }) {
  const queryClient = useQueryClient();
  // Answers in a row that showed a run still going: the backoff's step.
  const polls = useRef(0);
  const runs = useQuery({
    queryKey: ["monitor-runs", monitor.id],
    queryFn: async () => {
      const list = await dataOf(api.GET("/api/monitors/{id}/runs", { params: { path: { id: monitor.id }, query: { limit: 20 } } }));
      polls.current = list.some(isUnsettled) ? polls.current + 1 : 0;
      return list;
    },
    refetchInterval: (query) => (query.state.data?.some(isUnsettled) ? followDelay(polls.current) : false),
  });
  const following = runs.data?.some(isUnsettled) ?? false;
  const wasFollowing = useRef(false);
  useEffect(() => {
    if (wasFollowing.current && !following) void queryClient.invalidateQueries({ queryKey: ["monitors"] });
    wasFollowing.current = following;
  }, [following, queryClient]);
  if (runs.isPending) return <Loading what="its runs" />;
  if (runs.error) return <ErrorNotice error={runs.error} />;
  if (runs.data.length === 0) return <p className="muted">No runs yet.</p>;
  return (
    <table aria-label={`Runs of ${monitor.question}`}>
      <thead>
        <tr>
          <th>Started</th>
          <th>Job</th>
          <th>Status</th>
          <th>Charged</th>
          <th>What changed</th>
        </tr>
      </thead>
      <tbody>
        {runs.data.map((run) => (
          <tr key={run.id}>
            <td>
              {when(run.created_at)} <span className="muted">({run.trigger})</span>
            </td>
            <td>
              <Link to={`/jobs/${run.job_id}`}>{run.job_id.slice(0, 8)}</Link>
            </td>
            <td>{run.status}</td>
            <td>{run.credits_charged ?? "—"}</td>
            <td>
              <RunDiff run={run} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MonitorCard({ monitor, collectionNames }: { monitor: Monitor; collectionNames: Map<string, string> }) {
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["monitors"] });
    void queryClient.invalidateQueries({ queryKey: ["monitor-runs", monitor.id] });
  };
  const path = { params: { path: { id: monitor.id } } };
  const setStatus = useMutation({
    mutationFn: (status: "active" | "paused") => dataOf(api.PATCH("/api/monitors/{id}", { ...path, body: { status } })),
    onSuccess: refresh,
  });
  const runNow = useMutation({ mutationFn: () => dataOf(api.POST("/api/monitors/{id}/run", path)), onSettled: refresh });
  const remove = useMutation({ mutationFn: () => dataOf(api.DELETE("/api/monitors/{id}", path)), onSuccess: refresh });
  async function askToDelete() {
    const confirmed = await confirm({
      title: `Delete the monitor "${monitor.question}"?`,
      message: "It stops running, and the record of its runs is deleted. A run in progress finishes as an ordinary job and stays in your jobs list.",
      confirmLabel: "Delete",
    });
    if (confirmed) remove.mutate();
  }
  const searches = monitor.collections?.map((id) => collectionNames.get(id) ?? id.slice(0, 8));
  return (
    <article className="card" aria-label={monitor.question}>
      <h2>{monitor.question}</h2>
      <p className="muted">
        {monitor.mode}, {scheduleText(monitor)}, {monitor.credits_per_run} credits a run
        {searches ? `, searches ${searches.join(", ")}${monitor.web ? " and the default sources" : ""}` : ""}
        {monitor.webhook_url ? `, monitor.changed to ${monitor.webhook_url}` : ""}.{" "}
        {monitor.status === "active"
          ? `Next run ${monitor.next_run_at ? when(monitor.next_run_at) : "soon"}.`
          : `Paused (${pauseText(monitor.paused_reason)}).`}
      </p>
      <div className="row">
        {monitor.status === "active" ? (
          <button type="button" onClick={() => setStatus.mutate("paused")} disabled={setStatus.isPending}>
            Pause
          </button>
        ) : (
          <button type="button" onClick={() => setStatus.mutate("active")} disabled={setStatus.isPending}>
            Resume
          </button>
        )}
        <button type="button" onClick={() => runNow.mutate()} disabled={runNow.isPending}>
          Run now
        </button>
        <button type="button" className="danger" onClick={() => void askToDelete()} disabled={remove.isPending}>
          Delete
        </button>
      </div>
      <ErrorNotice error={setStatus.error ?? runNow.error ?? remove.error} />
      <Runs monitor={monitor} />
      {dialog}
    </article>
  );
}

/** Monitors: questions researched again on a schedule, each run with what changed since the one before. */
export function Monitors() {
  const queryClient = useQueryClient();
  const paging = usePage();
  const [question, setQuestion] = useState("");
  const [mode, setMode] = useState<Mode>("lite");
  const [every, setEvery] = useState("1d");
  const [webhookUrl, setWebhookUrl] = useState("");
  // The collections the monitor searches instead of the default sources (none: the default sources),
  // and whether it searches the default sources too: the request's `collections` and `web`.
  const [chosen, setChosen] = useState<string[]>([]);
  const [alsoWeb, setAlsoWeb] = useState(false);
  // The same list the Playground offers (all of the account's collections, one page of 100).
  const collections = useQuery({ queryKey: ["collections", "all"], queryFn: () => dataOf(api.GET("/api/collections", { params: { query: { limit: 100 } } })) });
  const collectionNames = new Map((collections.data ?? []).map((collection) => [collection.id, collection.name]));
  const monitors = useQuery({
    queryKey: ["monitors", paging.offset],
    queryFn: () => dataOf(api.GET("/api/monitors", { params: { query: paging.query } })),
  });
  const create = useMutation({
    mutationFn: () =>
      dataOf(
        api.POST("/api/monitors", {
          body: {
            question,
            mode,
            schedule: { every },
            ...(webhookUrl.trim() ? { webhook_url: webhookUrl.trim() } : {}),
            ...(chosen.length > 0 ? { collections: chosen, web: alsoWeb } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setQuestion("");
      setWebhookUrl("");
      setChosen([]);
      setAlsoWeb(false);
      paging.reset();
      void queryClient.invalidateQueries({ queryKey: ["monitors"] });
    },
  });
  const { rows, hasNext } = pageOf(monitors.data ?? [], paging.size);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <section aria-labelledby="monitors-title">
      <h1 id="monitors-title">Monitors</h1>
      <p className="muted">
        A question researched again on a schedule. Each run is a research job charged as one, compared with the run before: sources added and gone, the answer,
        claims added and withdrawn. A monitor whose run your balance does not cover pauses itself and charges nothing.
      </p>
      <form onSubmit={submit} aria-label="Create a monitor" className="inline">
        <label>
          Question
          <input required maxLength={2000} value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="Which countries have approved R21?" />
        </label>
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            <option value="lite">lite</option>
            <option value="standard">standard</option>
            <option value="pro">pro</option>
          </select>
        </label>
        <label>
          Every
          <input required pattern="[1-9][0-9]{0,3}[hd]" value={every} onChange={(e) => setEvery(e.target.value)} placeholder="6h or 2d" size={6} />
        </label>
        <label>
          Webhook URL (optional)
          <input type="url" value={webhookUrl} onChange={(e) => setWebhookUrl(e.target.value)} placeholder="https://example.com/hooks/monitor" />
        </label>
        <CollectionChoice
          collections={collections.data}
          chosen={chosen}
          alsoWeb={alsoWeb}
          onToggle={(id, checked) => setChosen((ids) => (checked ? [...ids, id] : ids.filter((other) => other !== id)))}
          onAlsoWeb={setAlsoWeb}
        />
        <button type="submit" disabled={create.isPending}>
          Create monitor
        </button>
      </form>
      <ErrorNotice error={create.error ?? monitors.error} />
      {monitors.isPending && <Loading what="your monitors" />}
      {monitors.data && rows.length === 0 && <p className="card">No monitors yet: create one above, or with POST /v1/monitors.</p>}
      {rows.map((monitor) => (
        <MonitorCard key={monitor.id} monitor={monitor} collectionNames={collectionNames} />
      ))}
      <Pager page={paging} hasNext={hasNext} what="monitors" />
    </section>
  );
}
