import type { Schemas } from "../../api/client";
import type { SnippetRequest } from "../../quickstart/snippets";

export type Mode = Schemas["ModePrice"]["mode"];

/**
 * The playground's form as one value: what the person typed, as typed (numbers and domain lists
 * stay text until a request is made of them). It is also what a running job keeps in the tab's
 * session storage (savedForm.ts), so its field names are a stored format.
 */
export interface PlaygroundForm {
  question: string;
  mode: Mode;
  /** Sent only in a metered mode (max), where it is also the job's cost cap. */
  maxCredits: string;
  wallclock: string;
  /** Domains separated by commas or white space. */
  include: string;
  exclude: string;
  /** The typed output's JSON Schema, as JSON text. */
  schemaText: string;
  collections: string[];
  /** With collections: also search the default sources. */
  alsoWeb: boolean;
}

export const DEFAULT_FORM: PlaygroundForm = {
  question: "",
  mode: "standard",
  maxCredits: "",
  wallclock: "",
  include: "",
  exclude: "",
  schemaText: "",
  collections: [],
  alsoWeb: false,
};

/**
 * The form a page opens with: the one saved when its job started (a reload mid-job), else what the
 * URL brings (a suggestion picked on the overview as ?question=, ?mode= and ?max_credits= of the
 * job in the URL, ?collection= from a collection's page), else the defaults.
 */
export function initialForm(saved: Partial<PlaygroundForm> | null, params: URLSearchParams): PlaygroundForm {
  const collection = params.get("collection");
  return {
    question: saved?.question ?? params.get("question") ?? DEFAULT_FORM.question,
    mode: saved?.mode ?? (params.get("mode") as Mode | null) ?? DEFAULT_FORM.mode,
    maxCredits: saved?.maxCredits ?? params.get("max_credits") ?? DEFAULT_FORM.maxCredits,
    wallclock: saved?.wallclock ?? DEFAULT_FORM.wallclock,
    include: saved?.include ?? DEFAULT_FORM.include,
    exclude: saved?.exclude ?? DEFAULT_FORM.exclude,
    schemaText: saved?.schemaText ?? DEFAULT_FORM.schemaText,
    collections: saved?.collections ?? (collection ? [collection] : DEFAULT_FORM.collections),
    alsoWeb: saved?.alsoWeb ?? DEFAULT_FORM.alsoWeb,
  };
}

/** A change to the form: the fields to set, or a function of the form as it is then (for a change that depends on it). */
export type FormUpdate = Partial<PlaygroundForm> | ((form: PlaygroundForm) => Partial<PlaygroundForm>);

/** The form after `change`: the reducer behind the page's one `update`. */
export function updateForm(form: PlaygroundForm, change: FormUpdate): PlaygroundForm {
  return { ...form, ...(typeof change === "function" ? change(form) : change) };
}

/** The fields that tick `id` in or out of the chosen collections. */
export const toggleCollection =
  (id: string, chosen: boolean) =>
  (form: PlaygroundForm): Partial<PlaygroundForm> => ({
    collections: chosen ? [...form.collections, id] : form.collections.filter((c) => c !== id),
  });

/** "a.com, b.org\nc.net" -> ["a.com", "b.org", "c.net"] */
export const domainList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The request a form makes, and what keeps it from being sent as it stands. */
export interface FormRequest {
  /**
   * The research request: what the price quote and the plan review ask about, what "Run research"
   * sends (with a reviewed plan's fields), and, less the playground's own `include_sources` and
   * `async`, what "Get code" writes out. Always with the sources, and always async: the playground
   * follows every job live, whatever its length.
   */
  body: Schemas["ResearchRequest"];
  /** Why the form cannot be sent yet (its JSON Schema is not JSON; the body then leaves the schema out), or null. */
  problem: string | null;
}

/**
 * The one place a form becomes a request. Optional fields left empty are left out (the service's
 * defaults apply); `max_credits` goes only with a metered mode, and `web` only with collections.
 */
export function requestBodyFor(form: PlaygroundForm, { metered }: { metered: boolean }): FormRequest {
  let responseSchema: Record<string, unknown> | undefined;
  let problem: string | null = null;
  if (form.schemaText.trim()) {
    try {
      responseSchema = JSON.parse(form.schemaText) as Record<string, unknown>;
    } catch {
      problem = "The JSON Schema is not valid JSON.";
    }
  }
  const body: Schemas["ResearchRequest"] = {
    question: form.question,
    mode: form.mode,
    ...(metered ? { max_credits: Number(form.maxCredits) } : {}),
    ...(form.wallclock ? { max_wallclock_secs: Number(form.wallclock) } : {}),
    ...(form.include.trim() ? { include_domains: domainList(form.include) } : {}),
    ...(form.exclude.trim() ? { exclude_domains: domainList(form.exclude) } : {}),
    ...(responseSchema ? { response_schema: responseSchema } : {}),
    ...(form.collections.length > 0 ? { collections: form.collections, web: form.alsoWeb } : {}),
    include_sources: true,
    async: true,
  };
  return { body, problem };
}

/** The body as "Get code" writes it: without the playground's own `include_sources` and `async`. */
export function snippetRequest(body: Schemas["ResearchRequest"]): SnippetRequest {
  const { include_sources: _sources, async: _async, ...request } = body;
  return request;
}
