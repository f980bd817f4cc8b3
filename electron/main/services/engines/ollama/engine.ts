import type { ChatResponse } from 'ollama';
import type { ChatFigures, ToolCall } from '@shared/contract/chat-message';
import type { Logger } from '../../log';
import type { OllamaService } from '../../ollama/service';
import { newId } from '../../chat/storage/rows';
import { ollamaFigures } from '../figures';
import type { ChatEngine, TurnRequest, TurnResult, TurnSink } from '../types';
import { ollamaOptions, toOllamaMessages } from '../wire';

/** A tool call as Ollama streams it (object arguments; ids `call_…` only from newer servers). */
function toolCallOf(tc: NonNullable<ChatResponse['message']['tool_calls']>[number]): ToolCall {
  const args: unknown = tc.function.arguments ?? {};
  const call: ToolCall =
    args && typeof args === 'object' && !Array.isArray(args)
      ? { name: tc.function.name, arguments: args as Record<string, unknown> }
      : { name: tc.function.name, arguments: {}, rawArguments: JSON.stringify(args) };
  // The tool message needs an id to answer: older servers send none.
  call.id = (tc as { id?: string }).id || newId('m').replace('m_', 'call_');
  return call;
}

/** Replies from the Ollama server set in Settings, through its own /api/chat, with its own figures. */
export class OllamaEngine implements ChatEngine {
  readonly backend = 'ollama' as const;
  readonly toolHistoryWithoutTools = true;
  private readonly capsCache = new Map<string, string[]>();

  constructor(private readonly opts: { ollama: OllamaService; log: Logger }) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    const p = req.params;
    const options = ollamaOptions(p);
    const toolCalls: ToolCall[] = [];
    let figures: ChatFigures | undefined;
    const started = performance.now();
    let firstToken: number | undefined;
    await this.opts.ollama.forward(
      (c) =>
        c.chat({
          model: req.model,
          messages: toOllamaMessages(req.turns),
          stream: true,
          ...(Object.keys(options).length ? { options } : {}),
          ...(p.think !== undefined ? { think: p.think } : {}),
          ...(req.tools ? { tools: req.tools } : {}),
        }),
      {
        signal: req.signal,
        emit: (part: ChatResponse) => {
          const m = part.message;
          if (firstToken === undefined && (m?.content || m?.thinking || m?.tool_calls?.length))
            firstToken = performance.now();
          sink.add(m?.content, m?.thinking);
          for (const tc of m?.tool_calls ?? []) toolCalls.push(toolCallOf(tc));
          if (part.done) figures = ollamaFigures(part, { started, firstToken, end: performance.now() });
        },
      },
      (part) => part,
    );
    return { toolCalls, figures };
  }

  async toolsUnsupported(model: string): Promise<string | undefined> {
    if ((await this.capabilities(model)).includes('tools')) return undefined;
    return `${model} cannot call tools (Ollama does not list "tools" among its capabilities).`;
  }

  /** Ollama `show` capabilities, kept per host and model; empty when Ollama cannot say. */
  async capabilities(model: string): Promise<string[]> {
    if (!model) return [];
    const { ollama, log } = this.opts;
    const key = `${ollama.host}\n${model}`;
    const cached = this.capsCache.get(key);
    if (cached) return cached;
    try {
      const res = await ollama.client().show({ model });
      const caps = res.capabilities ?? [];
      this.capsCache.set(key, caps);
      return caps;
    } catch (e) {
      log.warn('capabilities unknown', { model, message: String((e as Error).message) });
      return [];
    }
  }
}
