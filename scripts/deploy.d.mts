/** Types of deploy.mjs (plain JavaScript: `npm run deploy` runs without a TypeScript loader). */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}
export interface RunOptions {
  capture?: boolean;
  env?: Record<string, string>;
}
export type Run = (argv: string[], options?: RunOptions) => Promise<RunResult>;

export interface DeployConfig {
  workerName: string | undefined;
  d1: { binding: string; database_name: string; database_id?: string };
  queues: string[];
  vars: Record<string, string>;
  /** Whether it has an `[ai]` table (the repository's has none). */
  aiBinding: boolean;
}
export interface ModelChoice {
  provider: string;
  /** Who chose it: "the command line", "wrangler.toml's [vars]", or "default" (Workers AI, nobody named one). */
  source: string;
  /** The Workers AI model (LLM_MODEL or the default); undefined for another provider. */
  model: string | undefined;
  aiBinding: boolean;
}
export interface BundleSizes {
  modules: string[];
  bytes: number;
  gzipBytes: number;
}
export type DeployResult =
  | {
      databaseId: string;
      createdSecrets: string[];
      skippedSecrets: string[];
      /** The remote corpus's documents when SEARCH_PROVIDER is corpus (null: not counted, or a web provider). */
      corpusDocuments: number | null;
      /** The model it deployed with. */
      llm: { provider: string; source: string; model: string | null; aiBinding: boolean };
    }
  | ({ dryRun: true } & BundleSizes)
  | { help: true };

export declare const PLACEHOLDER_DATABASE_ID: string;
export declare const FREE_PLAN_COMPRESSED_LIMIT_BYTES: number;
export declare const UNCOMPRESSED_LIMIT_BYTES: number;
/** The Stripe API version the webhook endpoint must have (read from src/services/billing/stripe-version.ts). */
export declare const STRIPE_API_VERSION: string;
export declare const OPTIONAL_SECRETS: { name: string; about: string; provider?: [string, string] }[];
export declare const PROVIDER_SECRETS: Record<"SEARCH_PROVIDER" | "LLM_PROVIDER", Record<string, string>>;
export declare const WEB_SEARCH_PROVIDERS: Record<string, string>;
/** The Workers AI model a deploy writes with by default (read from src/research/providers/llm/defaults.ts). */
export declare const WORKERS_AI_DEFAULT_MODEL: string;
export declare const LLM_PROVIDERS: string[];
export declare const DEFAULT_DEPLOY_LLM: string;
export declare function aiConfigPath(configPath: string, pid?: number): string;
export declare function hasAiBinding(text: string): boolean;
export declare function withAiBinding(text: string): string;
export declare function chooseModel(configVars: Record<string, string>, flagVars: Record<string, string>): ModelChoice;
export declare function modelNotice(choice: ModelChoice): string;
export declare class DeployError extends Error {}
export declare function usage(): string;
export declare function emptyCorpusNotice(workerName: string | undefined, count: number | null): string;
export declare function readDeployConfig(text: string): DeployConfig;
export declare function writeDatabaseId(text: string, id: string, date?: Date): string;
export declare function bundleSizes(outdir: string): BundleSizes;
export declare function parseArgs(args: string[]): { help: boolean; dryRun: boolean; prompt: boolean; deployArgs: string[] };
export declare function deploy(options: {
  run: Run;
  prompt?: (question: string) => Promise<string>;
  log?: (message: string) => void;
  /** Where --help's usage goes (stdout). */
  print?: (text: string) => void;
  interactive?: boolean;
  args?: string[];
  configPath?: string;
  env?: Record<string, string | undefined>;
  tempDir?: () => string;
}): Promise<DeployResult>;
export declare const realRun: Run;
