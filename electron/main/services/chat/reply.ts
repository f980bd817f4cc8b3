import type { ChatResponse, Tool } from 'ollama';
import type { ChatEvent, ChatFigures, ChatMessage, ShownText, ToolCall } from '@shared/contract/chat';
import { AppError, toAppError } from '@shared/errors';
import type { StreamContext } from '../../router';
import type { Logger } from '../log';
import type { OllamaService } from '../ollama/service';
import type { McpService } from '../mcp/manager';
import { ollamaOptions, toOllamaMessages, toOpenAIMessages } from './code';
import type { Conversation } from './conversation';
import { withRetry } from '../http/retry';
import { ToolCallAssembler, httpStatusOf, providerError, providerStream } from './provider';
import { replyError } from './reply-errors';
import { newId } from './rows';
import { toTurns } from './turns';
import { ToolApprovals } from './tools/approvals';
import { runToolCalls } from './tools/tool-round';
import { Toolbox, type ToolboxDeps } from './tools/toolbox';
import { DEFAULT_WEB_BASE, MAX_TOOL_ROUNDS } from './tools/web-tools';

export interface ReplyOptions {
  ollama: OllamaService;
  log: Logger;
  router: () => { routerUrl: string; billTo: string };
  hfToken: () => string | undefined;
  ollamaApiKey: () => string | undefined;
  /** The key-bound fetches for the router and ollama.com's web tools: they alone put the keys on requests. */
  routerFetch: typeof fetch;
  webFetch: typeof fetch;
  /** ollama.com for web_search / web_fetch; tests point it at a fixture. */
  webBase?: () => string;
  /** How often a streaming reply is written to disk (at least once a second). */
  checkpointMs?: number;
  /** First retry back-off; doubles per attempt, capped at 8 s. */
  retryBaseMs?: number;
  maxToolRounds?: number;
  /** How long one tool call may run (default 2 minutes). */
  toolTimeoutMs?: number;
  /** How long to wait for the router's response headers. */
  providerTimeoutMs?: number;
  /** MCP servers, loaded on first use. */
  mcp: () => Promise<McpService>;
}

const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** `shown`: after a Stop, what of the reply the page had shown (see ReplyStop). */
export type ReplyCtx = StreamContext<ChatEvent> & { shown?: () => ShownText | undefined };
type Ctx = ReplyCtx;
export type ReplyResult = { messages: ChatMessage[] };

/** The context of the reply being written: the path before it (the reply itself is the last message). */
const history = (conv: Conversation): ChatMessage[] => conv.messages.slice(0, -1);

/**
 * A reply being streamed: text goes to the renderer almost at once and to the journal at every checkpoint, so a
 * crash loses at most one checkpoint interval. The parts a read from Ollama holds (a burst: hundreds per socket read)
 * leave as one delta, sent once the read is parsed (setImmediate), instead of one event each that the router, the
 * transport and the renderer would each handle; a token arriving alone still leaves at once.
 */
class LiveReply {
  content = '';
  thinking = '';
  private pendingContent = '';
  private pendingThinking = '';
  private readonly timer: ReturnType<typeof setInterval>;
  /** The delta not sent yet, and the immediate that sends it. */
  private delta?: { content: string; thinking: string };
  private deltaTimer?: ReturnType<typeof setImmediate>;

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
    const d = (this.delta ??= { content: '', thinking: '' });
    if (content) {
      this.content += content;
      this.pendingContent += content;
      d.content += content;
    }
    if (thinking) {
      this.thinking += thinking;
      this.pendingThinking += thinking;
      d.thinking += thinking;
    }
    this.deltaTimer ??= setImmediate(() => this.sendDelta());
  }

  private sendDelta(): void {
    if (this.deltaTimer) clearImmediate(this.deltaTimer);
    this.deltaTimer = undefined;
    const d = this.delta;
    if (!d) return;
    this.delta = undefined;
    const ev: ChatEvent = { type: 'delta', id: this.msg.id };
    if (d.content) ev.content = d.content;
    if (d.thinking) ev.thinking = d.thinking;
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

  /**
   * Cuts the reply back to what the page showed at Stop (a prefix of it: the page gets its text from here, in
   * order); what it did not show yet, the text not sent to it included, is dropped.
   */
  keepShown(shown: ShownText): void {
    const mine = shown.messageId === this.msg.id;
    this.content = mine ? this.content.slice(0, shown.content) : '';
    this.thinking = mine ? this.thinking.slice(0, shown.thinking) : '';
    this.delta = undefined;
  }

  /** The reply's final state, written as a whole message. */
  finish(extra: Partial<ChatMessage>): ChatMessage {
    clearInterval(this.timer);
    this.sendDelta();
    // Already a message a person can act on (see Conversation.tx): passed on as it is, not wrapped again.
    if (this.failed) throw toAppError(this.failed);
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

  /** Tool calls waiting for the user or running, answered by `chat.toolDecision`. */
  readonly approvals = new ToolApprovals();

  /** Where the tool sources are: MCP servers, and ollama.com's web tools with the key bound to it. */
  readonly toolDeps: ToolboxDeps = {
    mcp: () => this.opts.mcp(),
    web: () => ({
      apiKey: this.opts.ollamaApiKey(),
      base: this.opts.webBase?.() ?? DEFAULT_WEB_BASE,
      fetch: this.opts.webFetch,
    }),
  };

  /**
   * The tools this reply may offer: those of the conversation's sources, to router models and to Ollama models
   * that report the `tools` capability. Why none are offered, when some were asked for, becomes a notice.
   */
  private async toolbox(conv: Conversation): Promise<{ box?: Toolbox; notices: string[] }> {
    const meta = conv.meta;
    if (!meta.toolSources.length) return { notices: [] };
    if (meta.backend === 'ollama' && !(await this.capabilities(meta)).includes('tools'))
      return { notices: [`${meta.model} cannot call tools (Ollama does not list "tools" among its capabilities).`] };
    const box = await Toolbox.open(meta.toolSources, this.toolDeps);
    return { box: box.tools.length ? box : undefined, notices: box.problems };
  }

  /** Answers the conversation as it stands, running tool calls for up to `maxToolRounds` rounds. */
  async reply(conv: Conversation, ctx: Ctx): Promise<ReplyResult> {
    const meta = conv.meta;
    const produced: ChatMessage[] = [];
    const { box, notices } = await this.toolbox(conv);
    const maxRounds = this.opts.maxToolRounds ?? MAX_TOOL_ROUNDS;
    for (let round = 0; ; round++) {
      // After the last allowed tool round, the model must answer without tools.
      const offer = box && round < maxRounds ? box : undefined;
      const notice = [
        ...(round === 0 ? notices : []),
        ...(box && !offer ? [`Tools were offered for ${maxRounds} rounds; this answer had to come without them.`] : []),
      ].join(' ');
      const msg: ChatMessage = {
        id: newId('m'),
        role: 'assistant',
        content: '',
        status: 'streaming',
        model: meta.model,
        createdAt: new Date().toISOString(),
        ...(notice ? { notice } : {}),
      };
      conv.put(msg);
      ctx.emit({ type: 'message', message: msg });
      const live = new LiveReply(conv, msg, ctx, this.opts.checkpointMs ?? 500);
      let turn: { toolCalls?: ToolCall[]; figures?: ChatFigures };
      try {
        turn =
          meta.backend === 'ollama'
            ? await this.ollamaTurn(conv, live, offer?.defs, ctx)
            : await this.providerTurn(conv, live, box, offer?.defs, ctx);
      } catch (e) {
        const aborted = ctx.signal.aborted;
        const err = aborted
          ? new AppError('aborted', 'Stopped.')
          : replyError(e, { backend: meta.backend, model: meta.model, started: live.started });
        const shown = aborted ? ctx.shown?.() : undefined;
        if (shown) live.keepShown(shown);
        try {
          live.finish(aborted ? { status: 'stopped' } : { status: 'error', error: err.toJSON() });
        } catch (saveError) {
          // A stopped reply whose conversation went meanwhile ends as stopped all the same.
          if (!aborted) throw saveError;
        }
        this.opts.log.info('reply ended early', { id: meta.id, code: err.code, status: err.status });
        throw err;
      }
      const calls = turn.toolCalls ?? [];
      // Calls made when no tools were offered are kept and shown, never run.
      const unoffered =
        !offer && calls.length
          ? `The model asked for ${calls.map((c) => c.name).join(', ')}, but no tools were offered in this reply: nothing was run.`
          : '';
      const final = live.finish({
        status: 'complete',
        ...(calls.length ? { toolCalls: calls } : {}),
        ...(turn.figures ? { figures: turn.figures } : {}),
        ...(unoffered ? { notice: [notice, unoffered].filter(Boolean).join(' ') } : {}),
      });
      produced.push(final);
      if (!offer || !calls.length) return { messages: produced };
      const results = await runToolCalls(conv, calls, offer, ctx, {
        approvals: this.approvals,
        timeoutMs: this.opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      });
      produced.push(...results);
    }
  }

  private async ollamaTurn(
    conv: Conversation,
    live: LiveReply,
    tools: Tool[] | undefined,
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
            const args: unknown = tc.function.arguments ?? {};
            const call: ToolCall =
              args && typeof args === 'object' && !Array.isArray(args)
                ? { name: tc.function.name, arguments: args as Record<string, unknown> }
                : { name: tc.function.name, arguments: {}, rawArguments: JSON.stringify(args) };
            // Ollama's ids (`call_…`) are missing from older servers: the tool message needs one to answer.
            call.id = (tc as { id?: string }).id || newId('m').replace('m_', 'call_');
            toolCalls.push(call);
          }
          if (part.done) figures = figuresOf(part);
        },
      },
      (part) => part,
    );
    return { toolCalls, figures };
  }

  private async providerTurn(
    conv: Conversation,
    live: LiveReply,
    box: Toolbox | undefined,
    tools: Tool[] | undefined,
    ctx: Ctx,
  ): Promise<{ toolCalls?: ToolCall[]; figures?: ChatFigures }> {
    const { meta } = conv;
    const { routerUrl, billTo } = this.opts.router();
    // With tool sources on, earlier tool turns go as OpenAI tool_calls / tool messages; without, they are left out.
    const messages = toOpenAIMessages(toTurns(meta.system, history(conv), { tools: !!box }));
    const req = {
      routerUrl,
      billTo,
      token: this.opts.hfToken(),
      fetch: this.opts.routerFetch,
      model: meta.model,
      provider: meta.provider || 'auto',
      messages,
      params: meta.params,
      signal: ctx.signal,
      timeoutMs: this.opts.providerTimeoutMs,
      ...(tools ? { tools } : {}),
    };
    const started = performance.now();
    let firstToken: number | undefined;
    try {
      return await withRetry(
        async () => {
          const figures: ChatFigures = {};
          const calls = new ToolCallAssembler();
          for await (const d of providerStream(req)) {
            if (firstToken === undefined && (d.content || d.thinking)) firstToken = performance.now();
            live.add(d.content, d.thinking);
            if (d.toolCalls) calls.add(d.toolCalls);
            if (d.finishReason) figures.doneReason = d.finishReason;
            if (d.usage?.prompt_tokens) figures.promptTokens = d.usage.prompt_tokens;
            if (d.usage?.completion_tokens) figures.evalTokens = d.usage.completion_tokens;
          }
          const end = performance.now();
          figures.totalMs = end - started;
          if (figures.evalTokens && firstToken !== undefined && end > firstToken)
            figures.tokensPerSecond = figures.evalTokens / ((end - firstToken) / 1000);
          const toolCalls = calls.done();
          return { figures, ...(toolCalls.length ? { toolCalls } : {}) };
        },
        {
          statusOf: httpStatusOf,
          // Once tokens have arrived nothing is retried silently: the error ends the reply, keeping its text.
          retryable: () => !live.started,
          onRetry: ({ attempt, waitMs, status }) => {
            ctx.emit({ type: 'retry', attempt: attempt + 1, waitMs, reason: `HTTP ${status}` });
            this.opts.log.info('provider retry', { status, attempt, waitMs });
          },
          baseMs: this.opts.retryBaseMs,
          signal: ctx.signal,
        },
      );
    } catch (e) {
      if (ctx.signal.aborted) throw new AppError('aborted', 'Stopped.');
      throw providerError(e, req);
    }
  }
}
