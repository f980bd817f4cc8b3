import type { ChatListCursor, ShownText } from '@shared/contract/chat';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ConversationMeta, ConversationView, ToolSource } from '@shared/contract/chat-conversation';
import type { ChatSearchResult } from '@shared/contract/chat-search';
import type { Snippet } from '@shared/contract/snippets';
import { modelOnSwitch } from '@shared/chat-model';
import { AppError } from '@shared/errors';
import { Engines } from '../engines/registry';
import { conversationCode } from './code';
import type { PathWindow } from './storage/conversation';
import { ChatFiles } from './files/transfer';
import { assertFits } from './model-fit';
import { searchChats } from './storage/search';
import { ReplyWriter, type ReplyCtx, type ReplyOptions, type ReplyResult } from './replies/reply';
import { ReplyRuns } from './reply-runs';
import { ChatStore } from './storage/store';
import { listToolSources } from './replies/tools/toolbox';

/** Conversations per page of the list: a screenful several times over, a few tens of kB. */
const LIST_PAGE = 100;

interface ChatServiceOptions extends ReplyOptions {
  store: ChatStore;
  /** Every engine (shared with Compare and Documents). */
  engines: Engines;
}

/**
 * Conversations (store), versions, files (export, import), "Open as code", and replies (ReplyRuns) — one reply at a time per
 * conversation.
 */
export class ChatService {
  private readonly engines: Engines;
  private readonly writer: ReplyWriter;
  /** Sending, answering again and Stop: one reply at a time per conversation. */
  private readonly replies: ReplyRuns;

  constructor(private readonly opts: ChatServiceOptions) {
    this.engines = opts.engines;
    this.writer = new ReplyWriter(opts, this.engines);
    this.replies = new ReplyRuns(opts.store, this.writer, this.engines);
    this.files = new ChatFiles(opts.store, (meta) => this.engines.kind(meta.backend).exportName(meta));
  }

  /** Export and import files: one conversation, "Export all", files sent in parts. */
  readonly files: ChatFiles;

  get store(): ChatStore {
    return this.opts.store;
  }

  /** A page of the conversation list (LIST_PAGE unless `limit` says), continuing after `cursor`. */
  list(cursor?: ChatListCursor, limit = LIST_PAGE): { conversations: ConversationMeta[]; nextCursor?: ChatListCursor } {
    return this.store.write(() => this.store.page(cursor, limit));
  }

  /** A new conversation, its model fitting its engine (see modelMismatch). */
  create(init: Partial<ConversationMeta>): ConversationMeta {
    assertFits(init.backend ?? 'ollama', init.model);
    return this.store.create(init);
  }

  /**
   * Saves settings. A new engine (or another endpoint) without a model keeps the model only if it fits there (else
   * it is to be chosen); a model named that does not fit the engine is refused.
   */
  update(id: string, patch: Partial<ConversationMeta>): ConversationMeta {
    const meta = this.store.meta(id);
    const backend = patch.backend ?? meta.backend;
    const server = (m: ConversationMeta) => this.engines.kind(m.backend).server(m);
    if (patch.model === undefined && server({ ...meta, ...patch }) !== server(meta))
      patch = { ...patch, model: modelOnSwitch(backend, meta.model) };
    assertFits(backend, patch.model);
    return this.store.update(id, patch);
  }

  search(query: string): { results: ChatSearchResult[] } {
    return { results: this.store.write(() => searchChats(this.store.db, query)) };
  }

  /** The end of the selected path (a window), reaching back to `around` when given. */
  get(id: string, around?: string): ConversationView {
    const conv = this.store.get(id);
    return { meta: conv.meta, ...conv.window({ around }) };
  }

  /** Earlier messages of the selected path, just before `before`. */
  older(id: string, before: string, limit?: number): PathWindow {
    return this.store.write(() => this.store.get(id).older(before, limit));
  }

  /** Later messages of the selected path, just after `after`. */
  newer(id: string, after: string, limit?: number): PathWindow {
    return this.store.write(() => this.store.get(id).newer(after, limit));
  }

  /**
   * "Save": the edited question becomes a new version with no reply yet, and the conversation ends there; the
   * earlier version keeps its replies (a reply never moves under text it did not answer).
   */
  edit(id: string, messageId: string, content: string): ChatMessage {
    if (this.replies.running(id)) throw new AppError('conflict', 'A reply is being written: stop it before editing.');
    const conv = this.store.get(id);
    const m = conv.find(messageId);
    if (!m) throw new AppError('not_found', 'That message no longer exists.');
    if (m.role !== 'user') throw new AppError('invalid_input', 'Only your own messages can be edited.');
    return this.store.write(() => conv.saveAsVersion(messageId, content));
  }

  /** Stop: the running reply ends, keeping what the page showed (`shown`); false when none was running. */
  stop(id: string, shown?: ShownText): { stopped: boolean } {
    return this.replies.stop(id, shown);
  }

  /** Deleting a conversation stops its reply first (it ends as stopped, saved), then moves the conversation aside. */
  async delete(id: string): Promise<void> {
    await this.replies.settle(id);
    this.store.delete(id);
  }

  /** Undoes a delete until the app restarts. */
  restore(id: string): ConversationMeta {
    return this.store.restore(id);
  }

  /** Shows another version of a message; the conversation continues from it. */
  selectVersion(id: string, messageId: string): ConversationView {
    if (this.replies.running(id))
      throw new AppError('conflict', 'A reply is being written: stop it before switching versions.');
    const conv = this.store.get(id);
    if (!this.store.write(() => conv.select(messageId)))
      throw new AppError('not_found', 'That version no longer exists.');
    return this.get(id, messageId);
  }

  /** The built-in web tools and every MCP server, for the conversation settings. */
  async toolSources(): Promise<{ sources: ToolSource[] }> {
    return { sources: await listToolSources(this.writer.toolDeps) };
  }

  /** The user's answer to a tool call of a reply being written (approve, deny, or cancel a running call). */
  toolDecision(
    id: string,
    messageId: string,
    decision: 'once' | 'always' | 'deny' | 'cancel',
  ): { meta: ConversationMeta } {
    const { approvals } = this.writer;
    if (decision === 'always') {
      const key = approvals.waitingKey(id, messageId);
      const allowed = this.store.meta(id).toolsAllowed;
      if (!allowed.includes(key)) this.store.update(id, { toolsAllowed: [...allowed, key] });
    }
    approvals.decide(id, messageId, decision);
    return { meta: this.store.meta(id) };
  }

  /** "Open as code": the conversation as runnable snippets (see conversationCode). */
  code(id: string): Promise<{ snippets: Snippet[]; notice?: string }> {
    const conv = this.store.get(id);
    return conversationCode(conv, this.engines.kind(conv.meta.backend));
  }

  /**
   * Ollama models that can chat. A model whose capabilities Ollama does not state (older versions) stays in the
   * list; one that states them without `completion` (an embedding model) does not. Loaded ones are marked.
   */
  async models(): Promise<{ models: { name: string; capabilities: string[]; running: boolean }[] }> {
    const [{ models }, loaded] = await Promise.all([
      this.opts.ollama.list(),
      // Which ones are loaded is a nicety: the list stands without it.
      this.opts.ollama.ps().catch(() => ({ models: [] })),
    ]);
    const running = new Set(loaded.models.map((m) => m.name));
    const all = await Promise.all(
      models.map(async (m) => ({
        name: m.name,
        capabilities: await this.engines.for({ backend: 'ollama' }).capabilities(m.name),
        running: running.has(m.name),
      })),
    );
    return { models: all.filter((m) => !m.capabilities.length || m.capabilities.includes('completion')) };
  }

  /** What the conversation's model can do, for the composer (images, tools, thinking). */
  async capabilitiesOf(id: string): Promise<{ capabilities: string[] }> {
    return { capabilities: await this.capabilities(this.store.meta(id)) };
  }

  /**
   * What the conversation's model can do: Ollama's `show` capabilities (vision, tools, thinking…), what is known of
   * an endpoint's; empty for the router, or when the engine cannot say (an endpoint removed since).
   */
  async capabilities(meta: Pick<ConversationMeta, 'backend' | 'model' | 'provider' | 'endpoint'>): Promise<string[]> {
    if (!meta.model) return [];
    try {
      return await this.engines.for(meta).capabilities(meta.model);
    } catch {
      return [];
    }
  }

  send(input: { id: string; content: string; images?: string[] }, ctx: ReplyCtx): Promise<ReplyResult> {
    return this.replies.send(input, ctx);
  }

  regenerate(
    input: { id: string; edit?: { messageId: string; content: string } },
    ctx: ReplyCtx,
  ): Promise<ReplyResult> {
    return this.replies.regenerate(input, ctx);
  }
}
