/**
 * The tool definitions as each framework's own types see them: compiled by tool-types.test.ts (and
 * by `npm run typecheck`). Each assignment fails to compile when a shape drifts from the type the
 * framework declares; each @ts-expect-error fails when a check it stands for stops checking.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { type InferToolInput, type InferToolOutput, type ToolSet, tool } from "ai";
import type OpenAI from "openai";
import {
  anthropicTool,
  DeepResearch,
  openAIChatTool,
  openAIResponsesTool,
  type ResearchToolArguments,
  type ResearchToolOutput,
  vercelAiTool,
} from "../../sdk/src/index.js";

const client = new DeepResearch({ apiKey: "dr_live_types", baseUrl: "http://127.0.0.1:1" });

// OpenAI: the Chat Completions tool and the Responses API's function tool, strict or not.
export const chat: OpenAI.Chat.Completions.ChatCompletionTool = openAIChatTool();
export const chatStrict: OpenAI.Chat.Completions.ChatCompletionFunctionTool = openAIChatTool({ strict: true });
export const chatTools: OpenAI.Chat.ChatCompletionCreateParams["tools"] = [openAIChatTool()];
export const responses: OpenAI.Responses.FunctionTool = openAIResponsesTool();
export const responsesTools: OpenAI.Responses.ResponseCreateParams["tools"] = [openAIResponsesTool({ strict: true })];

// Anthropic: a custom tool of the Messages API.
export const anthropic: Anthropic.Tool = anthropicTool();
export const anthropicTools: Anthropic.MessageCreateParams["tools"] = [anthropicTool()];

// The Vercel AI SDK: tool() takes it, and infers the checked arguments and the output.
export const vercel = tool(vercelAiTool(client));
export const tools: ToolSet = { deep_research: vercel };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const inputInferred: Same<InferToolInput<typeof vercel>, ResearchToolArguments> = true;
export const outputInferred: Same<InferToolOutput<typeof vercel>, ResearchToolOutput> = true;

// The checks check: a shape for one framework is not taken for another's.
// @ts-expect-error Anthropic's shape has no `function`: not a Chat Completions tool.
export const anthropicAsChat: OpenAI.Chat.Completions.ChatCompletionTool = anthropicTool();
// @ts-expect-error The Chat Completions shape has no `input_schema`: not an Anthropic tool.
export const chatAsAnthropic: Anthropic.Tool = openAIChatTool();
// @ts-expect-error The Responses API's function tool says `strict` (the Chat Completions' function has it inside).
export const chatAsResponses: OpenAI.Responses.FunctionTool = openAIChatTool().function;
// @ts-expect-error An input the schema refuses is not the inferred input type.
export const wrongInput: InferToolInput<typeof vercel> = { question: "q", mode: "max" };
