import type { ShownText } from '@shared/contract/chat';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import { AppError, toAppError } from '@shared/errors';
import type { StreamContext } from '../../stream-context';
import { StreamedText } from '../../engines/streamed-text';
import type { Engines, EngineOptions } from '../../engines/registry';
import type { ChatEngine, TurnResult } from '../../engines/types';
import type { RetrievalPort, RetrievedContext } from '../../documents/ports';
import type { McpService } from '../../mcp/manager';
import type { Conversation } from '../storage/conversation';
import { docBudget, modelContext, retrieveForReply } from './doc-context';
import { replyError } from './reply-errors';
import { newId } from '../storage/rows';
import { toTurns } from './turns';
import { ToolApprovals } from './tools/approvals';
import { runToolCalls } from './tools/tool-round';
import { Toolbox, type ToolboxDeps } from './tools/toolbox';
import { DEFAULT_WEB_BASE, MAX_TOOL_ROUNDS } from './tools/web-tools';

export interface ReplyOptions extends EngineOptions {
  ollamaApiKey: () => string | undefined;
  /** The key-bound fetch for ollama.com's web tools: it alone puts the Ollama key on requests. */
  webFetch: typeof fetch;
  /** ollama.com for web_search / web_fetch; tests point it at a fixture. */
  webBase?: () => string;
  /** How often a streaming reply is written to disk (at least once a second). */
  checkpointMs?: number;
  maxToolRounds?: number;
  /** How long one tool call may run (default 2 minutes). */
  toolTimeoutMs?: number;
  /** MCP servers, loaded on first use. */
  mcp: () => Promise<McpService>;
  /** The documents of a conversation (its attachments, its knowledge bases), asked before each answer. */
  retrieval?: RetrievalPort;
}

const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** `shown`: after a Stop, what of the reply the page had shown (see ReplyStop). */
export type ReplyCtx = StreamContext<ChatEvent> & { shown?: () => ShownText | undefined };
type Ctx = ReplyCtx;
export type ReplyResult = { messages: ChatMessage[] };

/** The context of the reply being written: the path before it (the reply itself is the last message). */
const history = (conv: Conversation): ChatMessage[] => conv.messages.slice(0, -1);

/**
 * A reply being streamed: text goes to the renderer almost at once (StreamedText: one delta per socket read) and to
 * the journal at every checkpoint, so a crash loses at most one checkpoint interval.
 */
class LiveReply extends StreamedText {
  private pendingContent = '';
  private pendingThinking = '';
  private readonly checkpoints: ReturnType<typeof setInterval>;

  constructor(
    private readonly conv: Conversation,
    readonly msg: ChatMessage,
    private readonly ctx: Ctx,
    checkpointMs: number,
  ) {
    super((d) => {
      const ev: ChatEvent = { type: 'delta', id: msg.id };
      if (d.content) ev.content = d.content;
      if (d.thinking) ev.thinking = d.thinking;
      ctx.emit(ev);
    });
    this.checkpoints = setInterval(() => this.checkpoint(), checkpointMs);
  }

  override add(content: string | undefined, thinking: string | undefined, tokens?: number): void {
    super.add(content, thinking, tokens);
    if (content) this.pendingContent += content;
    if (thinking) this.pendingThinking += thinking;
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
    this.dropPending();
  }

  /** The reply's final state, written as a whole message. */
  finish(extra: Partial<ChatMessage>): ChatMessage {
    clearInterval(this.checkpoints);
    this.flush();
    // Already a message a person can act on (see Conversation.tx): passed on as it is, not wrapped again.
    if (this.failed) throw toAppError(this.failed);
    const msg: ChatMessage = { ...this.msg, content: this.content, ...extra };
    if (this.thinking) msg.thinking = this.thinking;
    this.conv.put(msg);
    this.ctx.emit({ type: 'message', message: msg });
    return msg;
  }
}

/** Replies from the conversation's engine (Ollama, the HF router, an endpoint), with tools, streamed and checkpointed. */
export class ReplyWriter {
  constructor(
    private readonly opts: ReplyOptions,
    private readonly engines: Engines,
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
   * The tools this reply may offer: those of the conversation's sources, unless the engine knows the model cannot
   * call them. Why none are offered, when some were asked for, becomes a notice.
   */
  private async toolbox(conv: Conversation, engine: ChatEngine): Promise<{ box?: Toolbox; notices: string[] }> {
    const meta = conv.meta;
    if (!meta.toolSources.length) return { notices: [] };
    const unsupported = await engine.toolsUnsupported(meta.model);
    if (unsupported) return { notices: [unsupported] };
    const box = await Toolbox.open(meta.toolSources, this.toolDeps);
    return { box: box.tools.length ? box : undefined, notices: box.problems };
  }

  /**
   * Before an answer: the documents' context within what the model's context leaves (see docBudget). The reply's
   * message keeps it (citations, the text sent) and says what was not indexed yet; undefined without documents.
   */
  private async documents(conv: Conversation, msg: ChatMessage, ctx: Ctx, tools: boolean) {
    const port = this.opts.retrieval;
    const meta = conv.meta;
    if (!port?.has(meta.id, meta.bases ?? [])) return undefined;
    const past = history(conv);
    const window = await modelContext(meta, this.engines.kind(meta.backend));
    const q = {
      conversation: meta.id,
      bases: meta.bases ?? [],
      question: past.findLast((m) => m.role === 'user')?.content ?? '',
      budgetTokens: docBudget(window, toTurns(meta.system, past, { tools }), meta.params.max_tokens),
    };
    const { docs, notice } = await retrieveForReply(port, q, ctx.signal);
    if (!docs && !notice) return undefined;
    if (docs) msg.context = docs.context;
    if (notice) msg.notice = [msg.notice, notice].filter(Boolean).join(' ');
    conv.put(msg);
    ctx.emit({ type: 'message', message: msg });
    return docs;
  }

  /** Answers the conversation as it stands, running tool calls for up to `maxToolRounds` rounds. */
  async reply(conv: Conversation, ctx: Ctx): Promise<ReplyResult> {
    const meta = conv.meta;
    const engine = this.engines.for(meta);
    const produced: ChatMessage[] = [];
    const { box, notices } = await this.toolbox(conv, engine);
    const maxRounds = this.opts.maxToolRounds ?? MAX_TOOL_ROUNDS;
    // Asked once per answer; its tool rounds go on with the same documents.
    let docs: RetrievedContext | undefined;
    const tools = engine.toolHistoryWithoutTools || !!box;
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
        ...(docs ? { context: docs.context } : {}),
      };
      conv.put(msg);
      ctx.emit({ type: 'message', message: msg });
      const live = new LiveReply(conv, msg, ctx, this.opts.checkpointMs ?? 500);
      let turn: TurnResult;
      try {
        if (round === 0) docs = await this.documents(conv, msg, ctx, tools);
        turn = await engine.turn(
          {
            model: meta.model,
            // Earlier tool turns go along where the engine takes them without tools, else only while tools are on.
            turns: toTurns(meta.system, history(conv), { tools, context: docs?.system }),
            ...(offer ? { tools: offer.defs } : {}),
            params: meta.params,
            signal: ctx.signal,
            onRetry: (r) => ctx.emit({ type: 'retry', ...r }),
            key: meta.id,
            onWait: (ahead) => ctx.emit({ type: 'waiting', ahead }),
          },
          live,
        );
      } catch (e) {
        const aborted = ctx.signal.aborted;
        const err = aborted
          ? new AppError('aborted', 'Stopped.')
          : replyError(e, this.engines.kind(meta.backend), { model: meta.model, started: live.started });
        const shown = aborted ? ctx.shown?.() : undefined;
        if (shown) live.keepShown(shown);
        const figures = live.measured();
        try {
          live.finish({
            ...(aborted ? { status: 'stopped' } : { status: 'error', error: err.toJSON() }),
            ...(figures ? { figures } : {}),
          });
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
      const more = [turn.notice, unoffered].filter(Boolean);
      const final = live.finish({
        status: 'complete',
        ...(calls.length ? { toolCalls: calls } : {}),
        ...(turn.figures ? { figures: turn.figures } : {}),
        ...(more.length ? { notice: [msg.notice, ...more].filter(Boolean).join(' ') } : {}),
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
}
