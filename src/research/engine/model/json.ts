/**
 * JSON out of what real models answer: a bare value, a fenced block (```json … ```), or a value
 * after or before some prose. Local OpenAI-compatible servers (vLLM, Ollama, llama.cpp) without a
 * JSON mode answer like that; one of them must not fail a job. Returns undefined when no JSON
 * value can be found.
 */
export function parseModelJson(text: string): unknown {
  const trimmed = text.trim();
  const direct = tryParse(trimmed);
  if (direct !== undefined) return direct;
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(trimmed)?.[1];
  if (fenced !== undefined) {
    const value = tryParse(fenced.trim());
    if (value !== undefined) return value;
  }
  // The first balanced object or array in the text (prose around it, an unclosed fence).
  for (let start = 0; start < trimmed.length; start++) {
    const open = trimmed[start];
    if (open !== "{" && open !== "[") continue;
    const end = balancedEnd(trimmed, start);
    if (end === -1) continue;
    const value = tryParse(trimmed.slice(start, end + 1));
    if (value !== undefined) return value;
  }
  return undefined;
}

function tryParse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Index of the bracket closing the one at `start`, strings skipped; -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") stack.push("}");
    else if (char === "[") stack.push("]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return index;
    }
  }
  return -1;
}
