import type { z } from "zod";

/**
 * The messages of a batch that match their queue's schema. A message that does not can never be
 * processed, so retrying it would only delay the batch: it is logged (queue, id, a bounded part
 * of its body) and acknowledged, set aside instead of crashing the consumer.
 */
export function checkedMessages<T>(batch: MessageBatch<unknown>, schema: z.ZodType<T>): Message<T>[] {
  const valid: Message<T>[] = [];
  for (const message of batch.messages) {
    const parsed = schema.safeParse(message.body);
    if (parsed.success) {
      valid.push(message as Message<T>);
      continue;
    }
    const body = JSON.stringify(message.body) ?? String(message.body);
    console.error(`queue ${batch.queue}: malformed message ${message.id} set aside (${parsed.error.issues[0]?.message ?? "invalid"}): ${body.slice(0, 500)}`);
    message.ack();
  }
  return valid;
}
