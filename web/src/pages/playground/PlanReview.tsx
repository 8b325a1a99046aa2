import { useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";

/** A reviewed plan as Run sends it: the plan's id and the lists as edited (for the question and mode it was made for). */
export interface ReviewedPlan {
  plan_id: string;
  question: string;
  mode: Schemas["ResearchPlan"]["mode"];
  sub_questions: string[];
  queries: string[];
  max_queries: number;
  expires_at: string;
}

/** The fields of a submit that run `plan`, when it was made for this question and mode (else none: Run plans afresh). */
export function planFields(plan: ReviewedPlan | null, question: string, mode: string): Partial<Schemas["ResearchRequest"]> {
  if (!plan || plan.question !== question.trim() || plan.mode !== mode) return {};
  return {
    plan_id: plan.plan_id,
    sub_questions: plan.sub_questions.map((s) => s.trim()).filter(Boolean),
    queries: plan.queries.map((q) => q.trim()).filter(Boolean),
  };
}

/** One editable list: each line an input, with remove, and an add while under `max`. */
function EditableList({ label, items, max, onChange }: { label: string; items: string[]; max: number; onChange: (items: string[]) => void }) {
  return (
    <fieldset className="choices plan-list">
      <legend>{label}</legend>
      {items.length === 0 && <p className="muted">None.</p>}
      {items.map((item, index) => (
        // Positions are the identity of a line while it is edited.
        <div className="row" key={index}>
          <input
            aria-label={`${label} ${index + 1}`}
            value={item}
            maxLength={label.startsWith("First") ? 200 : 500}
            onChange={(e) => onChange(items.map((old, i) => (i === index ? e.target.value : old)))}
          />
          <button
            type="button"
            className="secondary"
            aria-label={`Remove ${label.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(items.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      {items.length < max && (
        <button type="button" className="secondary" onClick={() => onChange([...items, ""])}>
          Add
        </button>
      )}
    </fieldset>
  );
}

/**
 * "Review plan" (POST /api/playground/research/plan): the plan Run would follow (free: nothing runs
 * or is reserved), shown as editable lists of sub-questions and first searches. Run then sends
 * `plan_id` with the edits, and the job's first wave searches exactly those queries. A plan is for
 * one question and mode: changing either sets it aside.
 */
export function PlanReview({
  body,
  plan,
  onPlan,
}: {
  body: Schemas["ResearchRequest"] | null;
  plan: ReviewedPlan | null;
  onPlan: (plan: ReviewedPlan | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const current = plan && body && plan.question === body.question.trim() && plan.mode === body.mode ? plan : null;

  async function review() {
    if (!body) return;
    setBusy(true);
    setProblem(null);
    try {
      const made = await dataOf(api.POST("/api/playground/research/plan", { body }));
      onPlan({
        plan_id: made.plan_id,
        question: made.question,
        mode: made.mode,
        sub_questions: made.sub_questions,
        queries: made.queries,
        max_queries: made.max_queries,
        expires_at: made.expires_at,
      });
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div aria-label="Plan">
      <button type="button" className="secondary" onClick={review} disabled={busy || !body || body.question.trim() === ""}>
        {busy ? "Planning…" : current ? "Plan again" : "Review plan"}
      </button>
      <ErrorNotice error={problem} />
      {current && (
        <div className="card">
          <p className="muted">
            Run follows this plan: its first wave searches exactly these queries. Free to make; it runs once and expires at{" "}
            {new Date(current.expires_at).toLocaleTimeString()}.
          </p>
          <EditableList label="Sub-questions" items={current.sub_questions} max={8} onChange={(sub_questions) => onPlan({ ...current, sub_questions })} />
          <EditableList
            label={`First searches (at most ${current.max_queries})`}
            items={current.queries}
            max={current.max_queries}
            onChange={(queries) => onPlan({ ...current, queries })}
          />
          <button type="button" className="secondary" onClick={() => onPlan(null)}>
            Discard the plan
          </button>
        </div>
      )}
    </div>
  );
}
