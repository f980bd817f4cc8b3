import type { Tool } from 'ollama';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { ToolCall } from '@shared/contract/chat-message';
import type { Turn } from '../../../chat/replies/turns';
import type { ReplyFormat, ToolChoice } from '../../../engines/types';
import { HttpError } from '../http';
import { parseArguments } from '../wire';
import type { Block, MessagesRequest } from './wire';

// Anthropic's Messages request (wire.ts) converted to the neutral turns, tools, format and parameters every engine
// takes.

const textOf = (blocks: Block[]) =>
  blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

const imagesOf = (blocks: Block[]) => blocks.flatMap((b) => (b.type === 'image' ? [b.source.data] : []));

/** A tool_use block's input as the chat keeps a call's arguments (a JSON object, else kept raw). */
const callOf = (b: Extract<Block, { type: 'tool_use' }>): ToolCall => ({
  id: b.id,
  name: b.name,
  ...parseArguments(JSON.stringify(b.input ?? {})),
});

const refuse = (at: string, message: string) => new HttpError(400, `'${at}': ${message}`);

/**
 * Anthropic's system and messages as the neutral turns: the system text first; a user message's tool results become
 * tool turns (before its text, as the engine pairs results with the calls right before them), named after the
 * tool_use they answer, which must be in the assistant message just before; thoughts sent back are left out.
 */
export function toTurns(r: Pick<MessagesRequest, 'messages' | 'system'>): Turn[] {
  const turns: Turn[] = [];
  const system = (r.system ?? []).map((b) => b.text).join('\n');
  if (system) turns.push({ role: 'system', content: system });
  /** The tool_use blocks of the assistant message just before, still unanswered: id → name. */
  let open = new Map<string, string>();
  let openAt = -1;
  const unanswered = () =>
    refuse(
      `messages.${openAt}`,
      `tool_use ${[...open.keys()].map((id) => JSON.stringify(id)).join(', ')} has no tool_result in the next user ` +
        'message: answer each tool_use with a tool_result block (same tool_use_id) in the user message right after it.',
    );
  r.messages.forEach((m, i) => {
    const blocks = m.content;
    if (m.role !== 'user' && open.size) throw unanswered();
    blocks.forEach((b, j) => {
      if (b.type === 'tool_result' && m.role !== 'user')
        throw refuse(`messages.${i}.content.${j}`, 'tool_result blocks go in a user message.');
      if (b.type === 'tool_use' && m.role !== 'assistant')
        throw refuse(`messages.${i}.content.${j}`, 'tool_use blocks go in an assistant message.');
    });
    if (m.role === 'system') {
      turns.push({ role: 'system', content: textOf(blocks) });
      return;
    }
    if (m.role === 'assistant') {
      const calls = blocks.flatMap((b) => (b.type === 'tool_use' ? [callOf(b)] : []));
      const t: Turn = { role: 'assistant', content: textOf(blocks) };
      if (calls.length) t.toolCalls = calls;
      turns.push(t);
      open = new Map(calls.map((c) => [c.id!, c.name]));
      openAt = i;
      return;
    }
    blocks.forEach((b, j) => {
      if (b.type !== 'tool_result') return;
      const name = open.get(b.tool_use_id);
      if (name === undefined)
        throw refuse(
          `messages.${i}.content.${j}.tool_use_id`,
          `${JSON.stringify(b.tool_use_id)} matches no tool_use block of the assistant message right before: send ` +
            "each tool_result after the assistant message that holds its tool_use, with that block's id.",
        );
      open.delete(b.tool_use_id);
      const result = b.content ?? [];
      const text = textOf(result);
      // The engine's turns have no error flag: the model reads it in words.
      const t: Turn = { role: 'tool', content: b.is_error ? `Error: ${text}` : text, toolCallId: b.tool_use_id };
      t.toolName = name;
      const images = imagesOf(result);
      if (images.length) t.images = images;
      turns.push(t);
    });
    if (open.size) throw unanswered();
    const text = textOf(blocks);
    const images = imagesOf(blocks);
    if (text || images.length || !blocks.some((b) => b.type === 'tool_result')) {
      const t: Turn = { role: 'user', content: text };
      if (images.length) t.images = images;
      turns.push(t);
    }
  });
  if (open.size) throw unanswered();
  return turns;
}

/**
 * The offered tools, as OpenAI function tools (what the engines take), and the choice among them. `none` offers no
 * tools at all, which is what it means for a model that cannot be constrained.
 */
export function toTools(r: Pick<MessagesRequest, 'tools' | 'tool_choice'>): { tools?: Tool[]; toolChoice: ToolChoice } {
  const c = r.tool_choice;
  const choice: ToolChoice =
    c?.type === 'any' ? 'required' : c?.type === 'tool' ? { name: c.name } : c?.type === 'none' ? 'none' : 'auto';
  if (typeof choice === 'object' && !r.tools?.some((t) => t.name === choice.name))
    throw refuse('tool_choice.name', `${JSON.stringify(choice.name)} is not one of the tools: name one of them.`);
  if (choice === 'none' || !r.tools?.length) return { toolChoice: choice };
  const tools = r.tools.map((t): Tool => ({
    type: 'function',
    function: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      parameters: t.input_schema as Tool['function']['parameters'],
    },
  }));
  return { tools, toolChoice: choice };
}

/** `output_config.format` as the engine's reply format. */
export function toFormat(r: MessagesRequest): ReplyFormat | undefined {
  const f = r.output_config?.format;
  return f ? { type: 'json_schema', schema: f.schema } : undefined;
}

/** The request's sampling fields as the chat's parameters; the engine names the stop sequence that ended a reply. */
export function toParams(r: MessagesRequest): ChatParams {
  const p: ChatParams = { max_tokens: Math.min(r.max_tokens, 1_000_000) };
  if (r.stop_sequences?.length) p.stop = r.stop_sequences;
  if (r.temperature != null) p.temperature = r.temperature;
  if (r.top_p != null) p.top_p = r.top_p;
  // `adaptive` and `between_tools` leave it to the model's own default.
  if (r.thinking?.type === 'enabled') p.think = true;
  else if (r.thinking?.type === 'disabled') p.think = false;
  return p;
}
