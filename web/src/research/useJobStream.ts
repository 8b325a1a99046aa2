import { useEffect, useReducer } from "react";
import type { Schemas } from "../api/client";
import { followJob, type JobEvent } from "./sse";

export interface JobStreamState {
  status: Schemas["ResearchResult"]["status"] | null;
  progress: Schemas["JobProgress"] | null;
  /** Pages as they are read, in arrival order. */
  sources: Schemas["SourceDto"][];
  result: Schemas["ResearchResult"] | null;
  /** Every event received, for the job's timeline. */
  events: JobEvent[];
  /** A stream that could not be followed. A failed job's own error is not one: its result says it (JobResult). */
  problem: unknown;
}

const initial: JobStreamState = { status: null, progress: null, sources: [], result: null, events: [], problem: null };

type Action = { type: "reset" } | { type: "event"; event: JobEvent } | { type: "problem"; problem: unknown };

function reduce(state: JobStreamState, action: Action): JobStreamState {
  if (action.type === "reset") return initial;
  if (action.type === "problem") return { ...state, problem: action.problem };
  const { event } = action;
  const next = { ...state, events: [...state.events, event] };
  switch (event.event) {
    case "status":
      return { ...next, status: event.data.status };
    case "progress":
      return { ...next, progress: event.data };
    case "source":
      return { ...next, sources: [...state.sources, event.data] };
    case "result":
      return { ...next, result: event.data, status: event.data.status };
    // The `error` event precedes the failed job's result, which carries the same message: shown
    // there once (as a problem too, it was shown twice).
    default:
      return next;
  }
}

/** The live state of a job from its SSE stream (`eventsUrl` null: nothing to follow). */
export function useJobStream(eventsUrl: string | null): JobStreamState {
  const [state, dispatch] = useReducer(reduce, initial);
  useEffect(() => {
    dispatch({ type: "reset" });
    if (!eventsUrl) return;
    const controller = new AbortController();
    followJob(eventsUrl, (event) => dispatch({ type: "event", event }), controller.signal).catch((problem: unknown) => dispatch({ type: "problem", problem }));
    return () => controller.abort();
  }, [eventsUrl]);
  return state;
}
