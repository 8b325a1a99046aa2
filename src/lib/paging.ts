import { z } from "@hono/zod-openapi";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const wholeNumber = (name: string, min: number, max: number, fallback: number, description: string) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be a non-negative integer` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `${name} must be at least ${min}` })
        .max(max, { error: `${name} must be at most ${max}` }),
    )
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ param: { name, in: "query" }, type: "integer", minimum: min, maximum: max, default: fallback, description });

/** `limit` (1..100, default 20) and `offset` (>= 0, default 0); anything else is 400. Lists are newest first. */
export const PagingQuery = z.object({
  limit: wholeNumber(
    "limit",
    1,
    MAX_LIMIT,
    DEFAULT_LIMIT,
    `How many items to return, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}). Lists carry no total: when another page exists, the response's \`Link\` header gives its URL (\`rel="next"\`).`,
  ),
  offset: wholeNumber("offset", 0, Number.MAX_SAFE_INTEGER, 0, "How many items to skip from the newest (default 0): the next page starts at offset + limit."),
});

export type Paging = z.infer<typeof PagingQuery>;
