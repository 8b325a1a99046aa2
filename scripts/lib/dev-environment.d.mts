/** Types of dev-environment.mjs (plain JavaScript: `npm start` runs without a TypeScript loader). */
export declare function environmentArgs(args: string[], root: string): string[];
