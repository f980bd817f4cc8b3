import type { ShownText } from '@shared/contract/chat';
import type { ChatMessage } from '@shared/contract/chat-message';
import { AppError } from '@shared/errors';
import type { Engines } from '../engines/registry';
import { assertCanReply } from './model-fit';
import type { ReplyCtx, ReplyResult, ReplyWriter } from './replies/reply';
import { ReplyStop } from './replies/reply-stop';
import type { Conversation } from './storage/conversation';
import { newId } from './storage/rows';
import type { ChatStore } from './storage/store';

/** Sending and answering again (ReplyWriter writes the reply) — one reply at a time per conversation. */
export class ReplyRuns {
  /** The reply being written per conversation: its Stop, and its end. */
  private readonly busy = new Map<string, { stop: ReplyStop; done: Promise<unknown> }>();

  constructor(
    private readonly store: ChatStore,
    private readonly writer: ReplyWriter,
    private readonly engines: Engines,
  ) {}

  /** Whether a reply is being written in the conversation. */
  running(id: string): boolean {
    return this.busy.has(id);
  }

  /** Stop: the running reply ends, keeping what the page showed (`shown`); false when none was running. */
  stop(id: string, shown?: ShownText): { stopped: boolean } {
    const running = this.busy.get(id);
    running?.stop.stop(shown);
    return { stopped: !!running };
  }

  /** Stops the running reply, if any, and waits for its end (it ends as stopped, saved). */
  async settle(id: string): Promise<void> {
    const running = this.busy.get(id);
    if (running) {
      running.stop.stop();
      await running.done.catch(() => {});
    }
  }

  /** One reply at a time per conversation; `stop` and `delete` reach it through its ReplyStop. */
  private async exclusive<T>(id: string, ctx: ReplyCtx, fn: (ctx: ReplyCtx) => Promise<T>): Promise<T> {
    if (this.busy.has(id))
      throw new AppError('conflict', 'A reply is already being written in this conversation: stop it first.');
    const stop = new ReplyStop(ctx);
    const done = fn(stop.ctx);
    this.busy.set(id, { stop, done });
    try {
      return await done;
    } finally {
      this.busy.delete(id);
    }
  }

  send(input: { id: string; content: string; images?: string[] }, ctx: ReplyCtx): Promise<ReplyResult> {
    return this.exclusive(input.id, ctx, (c) => this.sendNow(input, c));
  }

  regenerate(
    input: { id: string; edit?: { messageId: string; content: string } },
    ctx: ReplyCtx,
  ): Promise<ReplyResult> {
    return this.exclusive(input.id, ctx, (c) => this.regenerateNow(input, c));
  }

  private async sendNow(
    input: { id: string; content: string; images?: string[] },
    ctx: ReplyCtx,
  ): Promise<ReplyResult> {
    const conv = this.store.get(input.id);
    assertCanReply(this.engines, conv.meta);
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
    const out = await this.writer.reply(conv, ctx);
    return { messages: [user, ...out.messages] };
  }

  /**
   * Answers again. Nothing is deleted: the previous reply (or, with `edit`, the previous question and what
   * followed it) stays as an earlier version, a sibling of the new one.
   */
  private async regenerateNow(
    input: { id: string; edit?: { messageId: string; content: string } },
    ctx: ReplyCtx,
  ): Promise<ReplyResult> {
    const conv = this.store.get(input.id);
    assertCanReply(this.engines, conv.meta);
    if (input.edit) return this.editAndAnswer(conv, input.edit, ctx);
    const anchor = conv.messages.findLastIndex((m) => m.role === 'user');
    if (anchor < 0) throw new AppError('invalid_input', 'There is no message to answer yet.');
    const next = conv.messages[anchor + 1];
    if (next) {
      this.store.write(() => conv.branchBefore(next.id));
      ctx.emit({ type: 'cut', from: next.id });
    }
    return this.writer.reply(conv, ctx);
  }

  private async editAndAnswer(
    conv: Conversation,
    edit: { messageId: string; content: string },
    ctx: ReplyCtx,
  ): Promise<ReplyResult> {
    const old = conv.find(edit.messageId);
    if (!old) throw new AppError('not_found', 'That message no longer exists.');
    if (old.role !== 'user') throw new AppError('invalid_input', 'Only your own messages can be edited.');
    this.store.write(() => conv.branchBefore(old.id));
    ctx.emit({ type: 'cut', from: old.id });
    const edited: ChatMessage = { ...old, id: newId('m'), content: edit.content, createdAt: new Date().toISOString() };
    conv.put(edited);
    ctx.emit({ type: 'message', message: edited });
    const out = await this.writer.reply(conv, ctx);
    return { messages: [edited, ...out.messages] };
  }
}
