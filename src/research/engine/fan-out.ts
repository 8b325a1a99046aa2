import type { Page, SearchHit, SearchQuery } from "../providers/types";
import type { Providers } from "../providers/types";

/**
 * Fan-out hooks. A wave's searches and page reads are independent tasks; the engine hands
 * them to a TaskRunner, so the jobs layer can run them through Queues while tests and the eval
 * run them in-process. A task that fails yields an error result, never a thrown wave.
 */
export interface SearchTask {
  id: string;
  query: Omit<SearchQuery, "signal">;
}

export interface ReadTask {
  id: string;
  url: string;
}

export type TaskResult<T> = { id: string; ok: true; value: T } | { id: string; ok: false; error: string };

export interface TaskRunner {
  runSearches(tasks: SearchTask[], signal?: AbortSignal): Promise<TaskResult<SearchHit[]>[]>;
  readPages(tasks: ReadTask[], signal?: AbortSignal): Promise<TaskResult<Page | null>[]>;
}

/** Runs every task of a wave concurrently in this isolate, with a small concurrency cap. */
export class InProcessTaskRunner implements TaskRunner {
  constructor(
    private readonly providers: Pick<Providers, "search" | "reader">,
    private readonly concurrency = 6,
  ) {}

  runSearches(tasks: SearchTask[], signal?: AbortSignal) {
    return this.run(tasks, (task) => this.providers.search.search({ ...task.query, signal }));
  }

  readPages(tasks: ReadTask[], signal?: AbortSignal) {
    return this.run(tasks, (task) => this.providers.reader.read(task.url, signal));
  }

  private async run<T extends { id: string }, R>(tasks: T[], work: (task: T) => Promise<R>): Promise<TaskResult<R>[]> {
    const results: TaskResult<R>[] = new Array(tasks.length);
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const index = next++;
        const task = tasks[index]!;
        try {
          results[index] = { id: task.id, ok: true, value: await work(task) };
        } catch (error) {
          results[index] = { id: task.id, ok: false, error: error instanceof Error ? error.message : String(error) };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, tasks.length) }, worker));
    return results;
  }
}
