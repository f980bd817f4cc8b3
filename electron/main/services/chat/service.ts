import type { ChatResponse, Message as OllamaMessage } from 'ollama';
import type {
  ChatEvent,
  ChatFigures,
  ChatMessage,
  ChatParams,
  ConversationMeta,
  ToolCall,
} from '@shared/contract/chat';
import type { Snippet } from '@shared/contract/snippets';
import { AppError, toAppError } from '@shared/errors';
import type { StreamContext } from '../../router';
import type { Logger } from '../log';
import type { OllamaService } from '../ollama/service';
import { renderLocalServerSnippets } from '../snippets/local-server';
import type { SnippetService } from '../snippets/service';
import { MAX_ATTEMPTS, RETRY_STATUSES, backoff, httpStatusOf, providerError, providerStream } from './provider';
import { exportFileName, toMarkdown } from './export-format';
import { ChatStore, newId, type Conversation } from './store';
import { DEFAULT_WEB_BASE, MAX_TOOL_ROUNDS, runWebTool, webToolDefs } from './web-tools';

export interface ChatServiceOptions {
  store: ChatStore;
  ollama: OllamaService;
  log: Logger;
  router: () => { routerUrl: string; billTo: string };
  hfToken: () => string | undefined;
  ollamaApiKey: () => string | undefined;
  /** ollama.com for web_search / web_fetch; tests point it at a fixture. */
  webBase?: () => string;
  /** How often a streaming reply is written to disk (at least once a second). */
  checkpointMs?: number;
  /** First retry back-off; doubles per attempt, capped at 8 s. */
  retryBaseMs?: number;
  maxToolRounds?: number;
  /** How long to wait for the router's response headers. */
  providerTimeoutMs?: number;
}

type Ctx = StreamContext<ChatEvent>;
type ReplyResult = { messages: ChatMessage[] };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((ok, fail) => {
    if (signal.aborted) return fail(new AppError('aborted', 'Stopped.'));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      ok();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      fail(new AppError('aborted', 'Stopped.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A reply being streamed: text goes to the renderer at once (the router coalesces per frame) and to the
 * journal at every checkpoint, so a crash loses at most one checkpoint interval.
 */
class LiveReply {
  content = '';
  thinking = '';
  private pendingContent = '';
  private pendingThinking = '';
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly conv: Conversation,
    readonly msg: ChatMessage,
    private readonly ctx: Ctx,
    checkpointMs: number,
  ) {
    this.timer = setInterval(() => this.checkpoint(), checkpointMs);
  }

  add(content: string | undefined, thinking: string | undefined): void {
    if (!content && !thinking) return;
    const ev: ChatEvent = { type: 'delta', id: this.msg.id };
    if (content) {
      this.content += content;
      this.pendingContent += content;
      ev.content = content;
    }
    if (thinking) {
      this.thinking += thinking;
      this.pendingThinking += thinking;
      ev.thinking = thinking;
    }
    this.ctx.emit(ev);
  }

  get started(): boolean {
    return this.content.length > 0 || this.thinking.length > 0;
  }

  checkpoint(): void {
    if (!this.pendingContent && !this.pendingThinking) return;
    try {
      this.conv.append(this.msg.id, this.pendingContent, this.pendingThinking);
      this.pendingContent = '';
      this.pendingThinking = '';
    } catch (e) {
      // The conversation was deleted (its journal closed) or the disk failed: the reply's end reports it.
      this.failed = e;
    }
  }

  failed: unknown;

  /** The reply's final state, written as a whole message. */
  finish(extra: Partial<ChatMessage>): ChatMessage {
    clearInterval(this.timer);
    if (this.failed) throw new AppError('internal', `The reply could not be saved: ${String(this.failed)}`);
    const msg: ChatMessage = { ...this.msg, content: this.content, ...extra };
    if (this.thinking) msg.thinking = this.thinking;
    this.conv.put(msg);
    this.ctx.emit({ type: 'message', message: msg });
    return msg;
  }
}

function figuresOf(part: ChatResponse): ChatFigures {
  const f: ChatFigures = {};
  if (part.prompt_eval_count) f.promptTokens = part.prompt_eval_count;
  if (part.eval_count) f.evalTokens = part.eval_count;
  if (part.eval_count && part.eval_duration) f.tokensPerSecond = part.eval_count / (part.eval_duration / 1e9);
  if (part.load_duration) f.loadMs = part.load_duration / 1e6;
  if (part.total_duration) f.totalMs = part.total_duration / 1e6;
  if (part.done_reason) f.doneReason = part.done_reason;
  return f;
}

/** Conversations, their journals, and replies from Ollama or the Hugging Face router. */
/** A conversation's parameters as Ollama's model options (the request and "Open as code" use the same). */
export function ollamaOptions(p: ChatParams): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (p.temperature !== undefined) options.temperature = p.temperature;
  if (p.top_p !== undefined) options.top_p = p.top_p;
  if (p.max_tokens !== undefined) options.num_predict = p.max_tokens;
  if (p.num_ctx !== undefined) options.num_ctx = p.num_ctx;
  if (p.seed !== undefined) options.seed = p.seed;
  if (p.stop?.length) options.stop = p.stop;
  return options;
}

export class ChatService {
  private readonly capsCache = new Map<string, string[]>();
  private readonly busy = new Set<string>();

  constructor(private readonly opts: ChatServiceOptions) {}

  get store(): ChatStore {
    return this.opts.store;
  }

  list(query?: string): { conversations: ConversationMeta[] } {
    return { conversations: this.store.list(query) };
  }

  get(id: string): { meta: ConversationMeta; messages: ChatMessage[] } {
    const conv = this.store.get(id);
    return { meta: conv.meta, messages: conv.messages };
  }

  edit(id: string, messageId: string, content: string): ChatMessage {
    const conv = this.store.get(id);
    const m = conv.find(messageId);
    if (!m) throw new AppError('not_found', 'That message no longer exists.');
    if (m.role !== 'user') throw new AppError('invalid_input', 'Only your own messages can be edited.');
    return this.store.write(() => conv.editInPlace(messageId, content));
  }

  export(id: string, format: 'markdown' | 'json'): { filename: string; mime: string; text: string } {
    const exp = this.store.exportJson(id);
    if (format === 'json')
      return {
        filename: exportFileName(exp.meta.title, 'json'),
        mime: 'application/json',
        text: JSON.stringify(exp, null, 2),
      };
    return { filename: exportFileName(exp.meta.title, 'md'), mime: 'text/markdown', text: toMarkdown(exp) };
  }

  /**
   * "Open as code": the conversation (system prompt, parameters, messages) as runnable snippets from the
   * snippet engine — the ollama clients and curl for Ollama, the inference snippets for the router.
   */
  code(id: string, snippets: SnippetService): { snippets: Snippet[]; notice?: string } {
    const conv = this.store.get(id);
    const { meta } = conv;
    if (!meta.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
    const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [];
    if (meta.system) messages.push({ role: 'system', content: meta.system.slice(0, 20_000) });
    for (const m of conv.messages)
      if ((m.role === 'user' || m.role === 'assistant') && m.content)
        messages.push({ role: m.role, content: m.content.slice(0, 20_000) });
    // Running the snippet reproduces the last reply: it ends with the last user message.
    while (messages.length && messages.at(-1)!.role === 'assistant') messages.pop();
    // The engine takes up to 50 messages: keep the system prompt and the most recent ones.
    const fit = messages.length > 50 ? [...messages.slice(0, meta.system ? 1 : 0), ...messages.slice(-49)] : messages;
    if (fit.length === 0) fit.push({ role: 'user', content: 'Hello!' });
    const p = meta.params;
    if (meta.backend === 'ollama') {
      return {
        snippets: renderLocalServerSnippets({
          model: meta.model,
          host: this.opts.ollama.host,
          streaming: true,
          messages: fit,
          options: ollamaOptions(p),
          think: p.think,
        }).filter((s) => !s.client.includes('generate')),
      };
    }
    const res = snippets.generate({
      model: {
        id: meta.model,
        pipeline_tag: 'text-generation',
        tags: ['text-generation', 'conversational'],
        ...(meta.provider !== 'auto'
          ? {
              inferenceProviderMapping: [
                {
                  provider: meta.provider,
                  hfModelId: meta.model,
                  providerId: meta.model,
                  status: 'live',
                  task: 'conversational',
                },
              ],
            }
          : {}),
      },
      kinds: ['inference'],
      options: {
        provider: meta.provider || 'auto',
        streaming: true,
        messages: fit,
        ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
        ...(p.max_tokens !== undefined ? { max_tokens: p.max_tokens } : {}),
        ...(p.top_p !== undefined ? { top_p: p.top_p } : {}),
      },
    });
    const section = res.sections.find((s) => s.kind === 'inference');
    if (section?.error) throw new AppError('internal', `The snippet engine failed: ${section.error}`);
    return { snippets: section?.snippets ?? [], ...(section?.notice ? { notice: section.notice } : {}) };
  }

  /** Ollama `show` capabilities (vision, tools, thinking…); empty for the router or when Ollama cannot say. */
  async capabilities(meta: Pick<ConversationMeta, 'backend' | 'model'>): Promise<string[]> {
    if (meta.backend !== 'ollama' || !meta.model) return [];
    const key = `${this.opts.ollama.host}\n${meta.model}`;
    const cached = this.capsCache.get(key);
    if (cached) return cached;
    try {
      const res = await this.opts.ollama.client().show({ model: meta.model });
      const caps = res.capabilities ?? [];
      this.capsCache.set(key, caps);
      return caps;
    } catch (e) {
      this.opts.log.warn('capabilities unknown', { model: meta.model, message: String((e as Error).message) });
      return [];
    }
  }

  /** One reply at a time per conversation. */
  private async exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    if (this.busy.has(id))
      throw new AppError('conflict', 'A reply is already being written in this conversation: stop it first.');
    this.busy.add(id);
    try {
      return await fn();
    } finally {
      this.busy.delete(id);
    }
  }

  send(input: { id: string; content: string; images?: string[] }, ctx: Ctx): Promise<ReplyResult> {
    return this.exclusive(input.id, () => this.sendNow(input, ctx));
  }

  regenerate(input: { id: string; edit?: { messageId: string; content: string } }, ctx: Ctx): Promise<ReplyResult> {
    return this.exclusive(input.id, () => this.regenerateNow(input, ctx));
  }

  private async sendNow(input: { id: string; content: string; images?: string[] }, ctx: Ctx): Promise<ReplyResult> {
    const conv = this.store.get(input.id);
    if (!conv.meta.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
    if (!input.content.trim() && !input.images?.length) throw new AppError('invalid_input', 'Type a message first.');
    const user: ChatMessage = {
      id: newId('m'),
      role: 'user',
      content: input.content,
      status: 'complete',
      createdAt: new Date().toISOString(),
    };
    if (input.images?.length) user.images = input.images;
    conv.put(user);
    ctx.emit({ type: 'message', message: user });
    const out = await this.reply(conv, ctx);
    return { messages: [user, ...out.messages] };
  }

  private async regenerateNow(
    input: { id: string; edit?: { messageId: string; content: string } },
    ctx: Ctx,
  ): Promise<ReplyResult> {
    const conv = this.store.get(input.id);
    let anchor: number;
    if (input.edit) {
      anchor = conv.messages.findIndex((m) => m.id === input.edit!.messageId);
      if (anchor < 0) throw new AppError('not_found', 'That message no longer exists.');
      if (conv.messages[anchor].role !== 'user')
        throw new AppError('invalid_input', 'Only your own messages can be edited.');
      const edited = { ...conv.messages[anchor], content: input.edit.content };
      conv.put(edited);
      ctx.emit({ type: 'message', message: edited });
    } else {
      anchor = conv.messages.findLastIndex((m) => m.role === 'user');
      if (anchor < 0) throw new AppError('invalid_input', 'There is no message to answer yet.');
    }
    const next = conv.messages[anchor + 1];
    if (next) {
      conv.branchBefore(next.id);
      ctx.emit({ type: 'cut', from: next.id });
    }
    return this.reply(conv, ctx);
  }

  /** Answers the conversation as it stands, running web tools for up to `maxToolRounds` rounds. */
  private async reply(conv: Conversation, ctx: Ctx): Promise<ReplyResult> {
    const meta = conv.meta;
    const produced: ChatMessage[] = [];
    const caps = meta.webSearch ? await this.capabilities(meta) : [];
    const tools = meta.backend === 'ollama' && meta.webSearch && caps.includes('tools') ? webToolDefs : undefined;
    const maxRounds = this.opts.maxToolRounds ?? MAX_TOOL_ROUNDS;
    for (let round = 0; ; round++) {
      const msg: ChatMessage = {
        id: newId('m'),
        role: 'assistant',
        content: '',
        status: 'streaming',
        model: meta.model,
        createdAt: new Date().toISOString(),
      };
      conv.put(msg);
      ctx.emit({ type: 'message', message: msg });
      const live = new LiveReply(conv, msg, ctx, this.opts.checkpointMs ?? 500);
      // After the last allowed tool round, the model must answer without tools.
      const offer = tools && round < maxRounds ? tools : undefined;
      let turn: { toolCalls?: ToolCall[]; figures?: ChatFigures };
      try {
        turn =
          meta.backend === 'ollama'
            ? await this.ollamaTurn(conv, live, offer, ctx)
            : await this.providerTurn(conv, live, ctx);
      } catch (e) {
        const aborted = ctx.signal.aborted;
        const err = aborted ? new AppError('aborted', 'Stopped.') : toAppError(e);
        live.finish(aborted ? { status: 'stopped' } : { status: 'error', error: err.toJSON() });
        this.opts.log.info('reply ended early', { id: meta.id, code: err.code, status: err.status });
        throw err;
      }
      const final = live.finish({
        status: 'complete',
        ...(turn.toolCalls?.length ? { toolCalls: turn.toolCalls } : {}),
        ...(turn.figures ? { figures: turn.figures } : {}),
      });
      produced.push(final);
      if (!offer || !turn.toolCalls?.length) return { messages: produced };
      for (const call of turn.toolCalls) {
        if (ctx.signal.aborted) throw new AppError('aborted', 'Stopped.');
        const result: ChatMessage = {
          id: newId('m'),
          role: 'tool',
          content: '',
          toolName: call.name,
          status: 'complete',
          createdAt: new Date().toISOString(),
        };
        if (call.id) result.toolCallId = call.id;
        try {
          result.content = await runWebTool(call.name, call.arguments, {
            apiKey: this.opts.ollamaApiKey(),
            base: this.opts.webBase?.() ?? DEFAULT_WEB_BASE,
            signal: ctx.signal,
          });
        } catch (e) {
          if (ctx.signal.aborted) throw new AppError('aborted', 'Stopped.');
          const err = toAppError(e);
          result.status = 'error';
          result.error = err.toJSON();
          result.content = `Error: ${err.message}`;
        }
        conv.put(result);
        ctx.emit({ type: 'message', message: result });
        produced.push(result);
      }
    }
  }

  private history(conv: Conversation): ChatMessage[] {
    // The reply being written is the last message; everything before it is the context.
    return conv.messages.slice(0, -1).filter((m) => !(m.status === 'error' && !m.content && !m.toolCalls?.length));
  }

  private async ollamaTurn(
    conv: Conversation,
    live: LiveReply,
    tools: typeof webToolDefs | undefined,
    ctx: Ctx,
  ): Promise<{ toolCalls?: ToolCall[]; figures?: ChatFigures }> {
    const { meta } = conv;
    const messages: OllamaMessage[] = [];
    if (meta.system) messages.push({ role: 'system', content: meta.system });
    for (const m of this.history(conv)) {
      const om: OllamaMessage = { role: m.role, content: m.content };
      if (m.images?.length) om.images = m.images;
      if (m.toolCalls?.length)
        om.tool_calls = m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
      if (m.toolName) om.tool_name = m.toolName;
      messages.push(om);
    }
    const p = meta.params;
    const options = ollamaOptions(p);
    const toolCalls: ToolCall[] = [];
    let figures: ChatFigures | undefined;
    await this.opts.ollama.forward(
      (c) =>
        c.chat({
          model: meta.model,
          messages,
          stream: true,
          ...(Object.keys(options).length ? { options } : {}),
          ...(p.think !== undefined ? { think: p.think } : {}),
          ...(tools ? { tools } : {}),
        }),
      {
        signal: ctx.signal,
        emit: (part: ChatResponse) => {
          live.add(part.message?.content, part.message?.thinking);
          for (const tc of part.message?.tool_calls ?? []) {
            const call: ToolCall = { name: tc.function.name, arguments: tc.function.arguments ?? {} };
            const id = (tc as { id?: string }).id;
            if (id) call.id = id;
            toolCalls.push(call);
          }
          if (part.done) figures = figuresOf(part);
        },
      },
      (part) => part,
    );
    return { toolCalls, figures };
  }

  private async providerTurn(conv: Conversation, live: LiveReply, ctx: Ctx): Promise<{ figures?: ChatFigures }> {
    const { meta } = conv;
    const { routerUrl, billTo } = this.opts.router();
    const messages: { role: string; content: string }[] = [];
    if (meta.system) messages.push({ role: 'system', content: meta.system });
    for (const m of this.history(conv)) if (m.role !== 'tool') messages.push({ role: m.role, content: m.content });
    const req = {
      routerUrl,
      billTo,
      token: this.opts.hfToken(),
      model: meta.model,
      provider: meta.provider || 'auto',
      messages,
      params: meta.params,
      signal: ctx.signal,
      timeoutMs: this.opts.providerTimeoutMs,
    };
    const started = performance.now();
    let firstToken: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const figures: ChatFigures = {};
      try {
        for await (const d of providerStream(req)) {
          if (firstToken === undefined && (d.content || d.thinking)) firstToken = performance.now();
          live.add(d.content, d.thinking);
          if (d.finishReason) figures.doneReason = d.finishReason;
          if (d.usage?.prompt_tokens) figures.promptTokens = d.usage.prompt_tokens;
          if (d.usage?.completion_tokens) figures.evalTokens = d.usage.completion_tokens;
        }
        const end = performance.now();
        figures.totalMs = end - started;
        if (figures.evalTokens && firstToken !== undefined && end > firstToken)
          figures.tokensPerSecond = figures.evalTokens / ((end - firstToken) / 1000);
        return { figures };
      } catch (e) {
        if (ctx.signal.aborted) throw new AppError('aborted', 'Stopped.');
        const status = httpStatusOf(e);
        // Once tokens have arrived nothing is retried silently: the error ends the reply, keeping its text.
        if (status !== undefined && RETRY_STATUSES.includes(status) && !live.started && attempt < MAX_ATTEMPTS) {
          const waitMs = backoff(attempt, this.opts.retryBaseMs ?? 1_000);
          ctx.emit({ type: 'retry', attempt: attempt + 1, waitMs, reason: `HTTP ${status}` });
          this.opts.log.info('provider retry', { status, attempt, waitMs });
          await sleep(waitMs, ctx.signal);
          continue;
        }
        throw providerError(e, req);
      }
    }
  }
}
