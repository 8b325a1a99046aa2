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
  /** The job's own error event, or a stream that could not be followed. */
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
    case "error":
      return { ...next, problem: new Error(event.data.message) };
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
