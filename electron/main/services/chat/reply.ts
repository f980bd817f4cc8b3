import type { ChatResponse } from 'ollama';
import type { ChatEvent, ChatFigures, ChatMessage, ToolCall } from '@shared/contract/chat';
import { AppError, toAppError } from '@shared/errors';
import type { StreamContext } from '../../router';
import type { Logger } from '../log';
import type { OllamaService } from '../ollama/service';
import { ollamaOptions, toOllamaMessages } from './code';
import type { Conversation } from './conversation';
import { MAX_ATTEMPTS, RETRY_STATUSES, backoff, httpStatusOf, providerError, providerStream } from './provider';
import { replyError } from './reply-errors';
import { newId } from './rows';
import { toTurns } from './turns';
import { DEFAULT_WEB_BASE, MAX_TOOL_ROUNDS, runWebTool, webToolDefs } from './web-tools';

export interface ReplyOptions {
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

export type ReplyCtx = StreamContext<ChatEvent>;
type Ctx = ReplyCtx;
export type ReplyResult = { messages: ChatMessage[] };

/** The context of the reply being written: the path before it (the reply itself is the last message). */
const history = (conv: Conversation): ChatMessage[] => conv.messages.slice(0, -1);

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

/** Replies from Ollama or the Hugging Face router, with web tools and retries, streamed and checkpointed. */
export class ReplyWriter {
  constructor(
    private readonly opts: ReplyOptions,
    /** Ollama `show` capabilities, cached by the service. */
    private readonly capabilities: (meta: { backend: 'ollama' | 'provider'; model: string }) => Promise<string[]>,
  ) {}

  /** Answers the conversation as it stands, running web tools for up to `maxToolRounds` rounds. */
  async reply(conv: Conversation, ctx: Ctx): Promise<ReplyResult> {
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
        const err = aborted
          ? new AppError('aborted', 'Stopped.')
          : replyError(e, { backend: meta.backend, model: meta.model, started: live.started });
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

  private async ollamaTurn(
    conv: Conversation,
    live: LiveReply,
    tools: typeof webToolDefs | undefined,
    ctx: Ctx,
  ): Promise<{ toolCalls?: ToolCall[]; figures?: ChatFigures }> {
    const { meta } = conv;
    const messages = toOllamaMessages(toTurns(meta.system, history(conv)));
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
    const messages = toTurns(meta.system, history(conv), { tools: false }).map((t) => ({
      role: t.role,
      content: t.content,
    }));
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
