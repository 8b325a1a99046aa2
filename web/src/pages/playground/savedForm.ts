import type { PlaygroundForm } from "./form";

/**
 * The playground's form, kept per job in sessionStorage when the job starts: a reload while it
 * runs (the job id is in the URL) puts the question, mode and options back instead of an empty
 * form. Per tab, gone with it; another tab opening the same URL finds only the job.
 */

const storageKey = (jobId: string) => `deep-research.playground.${jobId}`;

export function saveForm(jobId: string, form: PlaygroundForm): void {
  try {
    sessionStorage.setItem(storageKey(jobId), JSON.stringify(form));
  } catch {
    // Storage full or refused (private mode): a reload then shows the job's question only.
  }
}

export function savedForm(jobId: string | null): Partial<PlaygroundForm> | null {
  if (!jobId) return null;
  try {
    const text = sessionStorage.getItem(storageKey(jobId));
    return text ? (JSON.parse(text) as Partial<PlaygroundForm>) : null;
  } catch {
    return null;
  }
}

/** Whether the form used the folded options (collections, domains, a schema): then they open unfolded. */
export function usesMoreOptions(form: Partial<PlaygroundForm> | null): boolean {
  return Boolean(form && ((form.collections?.length ?? 0) > 0 || form.include?.trim() || form.exclude?.trim() || form.schemaText?.trim()));
}
