import { textChars } from './prompt-size';

// The counts a chat request may carry, shared by the OpenAI and Anthropic routes: each refusal is a 400 that says
// the limit, before anything is templated or tokenized.

export const MAX_MESSAGES = 10_000;
export const MAX_TOOLS = 128;
/** One tool's name, description and schema together, in characters (a large real one is a few thousand). */
const MAX_TOOL_CHARS = 100_000;

export const TOO_MANY_MESSAGES = `send at most ${MAX_MESSAGES.toLocaleString('en-US')} messages`;
export const TOO_MANY_TOOLS = `send at most ${MAX_TOOLS} tools`;
export const TOOL_TOO_LARGE = `a tool may be at most ${MAX_TOOL_CHARS.toLocaleString('en-US')} characters, its description and schema included`;

/** Whether one tool stays within MAX_TOOL_CHARS. */
export const toolFits = (tool: unknown): boolean => textChars(tool) <= MAX_TOOL_CHARS;
