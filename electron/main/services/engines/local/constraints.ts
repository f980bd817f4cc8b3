import type { Tool } from 'ollama';
import type { ChatModelFunctions } from 'node-llama-cpp';
import { AppError } from '@shared/errors';
import type { HostGrammar } from '../../local/host/protocol';
import type { TurnRequest } from '../types';
import { toLlamaFunctions } from './history';
import { grammarSchema } from './json-schema';

// What a turn's `format` and `toolChoice` ask of the built-in engine. node-llama-cpp takes either functions (the
// model may call one) or a grammar (the reply must match it), never both. A call the client forces (`required`, or a
// named function) is therefore a grammar: the reply is the call's JSON, and the engine turns it back into a tool call.

export interface ReplyConstraints {
  functions?: ChatModelFunctions;
  grammar?: HostGrammar;
  /** Added to the system turn: what the grammar makes the model write, so it writes it with sense. */
  instruction?: string;
  /** The reply is a forced call: the arguments of `name`, or `{name, arguments}` of one of the tools. */
  forced?: { name?: string };
}

const refuse = (message: string, wireCode: string) => new AppError('invalid_input', message, { details: { wireCode } });

/** A tool's parameters in the grammar's form (an object with no parameters when it takes none). */
function paramsOf(t: Tool): Record<string, unknown> {
  const p = t.function.parameters;
  return p ? grammarSchema(p, `tool ${t.function.name}'s parameters`) : { type: 'object', properties: {} };
}

/** A tool as the instruction names it; its parameters' names and types the grammar writes in as the model goes. */
function describe(t: Tool): string {
  const f = t.function;
  return `${f.name}${f.description ? ` (${f.description})` : ''}`;
}

export function constraintsOf(req: Pick<TurnRequest, 'tools' | 'toolChoice' | 'format'>): ReplyConstraints {
  const tools = (req.tools ?? []).filter((t) => t.function?.name);
  const choice = req.toolChoice ?? 'auto';
  const offered = choice !== 'none' && tools.length > 0;
  if (req.format && offered)
    throw refuse(
      'response_format cannot be combined with tools on the built-in engine: send tool_choice "none", or leave response_format out.',
      'unsupported_value',
    );
  if (req.format) {
    const grammar: HostGrammar =
      req.format.type === 'json'
        ? { type: 'json' }
        : { type: 'schema', schema: grammarSchema(req.format.schema, 'response_format.json_schema.schema') };
    return { grammar };
  }
  if (choice === 'none' || !tools.length) {
    if (choice === 'required' || typeof choice === 'object')
      throw refuse(
        'tool_choice asks for a tool call, but no tools were sent: add them to tools.',
        'invalid_tool_choice',
      );
    return {};
  }
  if (choice === 'auto') return { functions: toLlamaFunctions(tools) };
  if (typeof choice === 'object') {
    const tool = tools.find((t) => t.function.name === choice.name);
    if (!tool)
      throw refuse(
        `tool_choice names "${choice.name}", which is not among the tools (${tools.map((t) => t.function.name).join(', ')}).`,
        'invalid_tool_choice',
      );
    return {
      grammar: { type: 'schema', schema: paramsOf(tool) },
      instruction: `Answer by calling the function ${describe(tool)}. Write only its arguments, as JSON.`,
      forced: { name: choice.name },
    };
  }
  // `required`: one call, to whichever tool the model picks.
  const schema =
    tools.length === 1
      ? paramsOf(tools[0])
      : {
          oneOf: tools.map((t) => ({
            type: 'object',
            properties: { name: { const: t.function.name }, arguments: paramsOf(t) },
          })),
        };
  return tools.length === 1
    ? {
        grammar: { type: 'schema', schema },
        instruction: `Answer by calling the function ${describe(tools[0])}. Write only its arguments, as JSON.`,
        forced: { name: tools[0].function.name },
      }
    : {
        grammar: { type: 'schema', schema },
        instruction: `Answer by calling one of these functions: ${tools.map(describe).join('; ')}. Write only {"name": …, "arguments": …} as JSON.`,
        forced: {},
      };
}

/** The forced call the reply's JSON makes; a reply cut before its JSON ended keeps its text as raw arguments. */
export function forcedCall(
  text: string,
  forced: { name?: string },
): { functionName: string; params: unknown } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return forced.name ? { functionName: forced.name, params: text } : undefined;
  }
  if (forced.name) return { functionName: forced.name, params: v };
  const call = v as { name?: unknown; arguments?: unknown };
  return typeof call?.name === 'string' ? { functionName: call.name, params: call.arguments ?? {} } : undefined;
}
