import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  conversationExportSchema,
  conversationMetaSchema,
  type ChatMessage,
  type ConversationExport,
  type ConversationMeta,
} from '@shared/contract/chat';
import { AppError } from '@shared/errors';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';
import { Journal } from './journal';

export const newId = (prefix: 'c' | 'm') => `${prefix}_${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

export const DEFAULT_TITLE = 'New chat';

/** One open conversation: its metadata, its messages in memory, and its journal on disk. */
export class Conversation {
  constructor(
    public meta: ConversationMeta,
    readonly messages: ChatMessage[],
    private readonly journal: Journal,
    private readonly saveMeta: (m: ConversationMeta) => void,
  ) {}

  find(id: string): ChatMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  /** Adds or replaces a message; returns once it is on disk. */
  put(msg: ChatMessage): void {
    this.journal.append([{ t: 'put', msg }]);
    const i = this.messages.findIndex((m) => m.id === msg.id);
    if (i >= 0) this.messages[i] = msg;
    else {
      this.messages.push(msg);
      const patch: Partial<ConversationMeta> = { messageCount: this.messages.length };
      if (this.meta.title === DEFAULT_TITLE && msg.role === 'user' && msg.content.trim())
        patch.title = msg.content.trim().replace(/\s+/g, ' ').slice(0, 60);
      this.touch(patch);
    }
  }

  /** A checkpoint of a streaming reply: the text since the previous one. */
  append(id: string, content: string, thinking: string): void {
    if (!content && !thinking) return;
    const rec: { t: 'append'; id: string; content?: string; thinking?: string } = { t: 'append', id };
    if (content) rec.content = content;
    if (thinking) rec.thinking = thinking;
    this.journal.append([rec]);
    const m = this.find(id);
    if (m) {
      m.content += content;
      if (thinking) m.thinking = (m.thinking ?? '') + thinking;
    }
  }

  /** Drops this message and every later one. */
  cut(from: string): void {
    const i = this.messages.findIndex((m) => m.id === from);
    if (i < 0) return;
    this.journal.append([{ t: 'cut', from }]);
    this.messages.splice(i);
    this.touch({ messageCount: this.messages.length });
  }

  touch(patch: Partial<ConversationMeta> = {}): void {
    this.meta = { ...this.meta, ...patch, updatedAt: new Date().toISOString() };
    this.saveMeta(this.meta);
  }

  close(): void {
    this.journal.close();
  }
}

/**
 * Conversations under `<dataDir>/chats/<id>/`: `journal.jsonl` (append-only) and `meta.json` (atomic writes).
 * Deleting moves the folder to `.trash/`, so it can be restored until the next start.
 */
export class ChatStore {
  private readonly open = new Map<string, Conversation>();
  private metas?: Map<string, ConversationMeta>;
  private readonly trash: string;

  constructor(
    readonly root: string,
    private readonly log: Logger,
  ) {
    this.trash = join(root, '.trash');
    rmSync(this.trash, { recursive: true, force: true });
  }

  private dir(id: string): string {
    if (!/^c_[a-z0-9]+$/.test(id)) throw new AppError('invalid_input', 'Not a conversation id.');
    return join(this.root, id);
  }

  private writeMeta(meta: ConversationMeta): void {
    writeFileAtomic(join(this.dir(meta.id), 'meta.json'), JSON.stringify(meta, null, 2));
    this.all().set(meta.id, meta);
  }

  private all(): Map<string, ConversationMeta> {
    if (this.metas) return this.metas;
    this.metas = new Map();
    if (!existsSync(this.root)) return this.metas;
    for (const name of readdirSync(this.root)) {
      if (!/^c_[a-z0-9]+$/.test(name)) continue;
      const file = join(this.root, name, 'meta.json');
      try {
        const meta = conversationMetaSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
        this.metas.set(meta.id, meta);
      } catch (e) {
        this.log.warn('conversation metadata unreadable; skipped', { id: name, message: String(e) });
      }
    }
    return this.metas;
  }

  list(query?: string): ConversationMeta[] {
    const q = query?.trim().toLowerCase();
    return [...this.all().values()]
      .filter((m) => !q || m.title.toLowerCase().includes(q) || m.model.toLowerCase().includes(q))
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt.localeCompare(a.updatedAt));
  }

  meta(id: string): ConversationMeta {
    const m = this.all().get(id);
    if (!m) throw new AppError('not_found', 'This conversation no longer exists. It may have been deleted.');
    return m;
  }

  create(init: Partial<ConversationMeta>): ConversationMeta {
    const now = new Date().toISOString();
    const meta: ConversationMeta = conversationMetaSchema.parse({
      title: DEFAULT_TITLE,
      backend: 'ollama',
      model: '',
      provider: 'auto',
      system: '',
      params: {},
      webSearch: false,
      pinned: false,
      ...init,
      id: newId('c'),
      createdAt: now,
      updatedAt: now,
      messageCount: 0,
    });
    mkdirSync(this.dir(meta.id), { recursive: true });
    this.writeMeta(meta);
    return meta;
  }

  /** Opens a conversation (once; later calls share it), replaying its journal. */
  get(id: string): Conversation {
    const cached = this.open.get(id);
    if (cached) return cached;
    const meta = this.meta(id);
    const journal = Journal.open(join(this.dir(id), 'journal.jsonl'));
    if (journal.report.tornBytes || journal.report.badLines)
      this.log.warn('conversation journal repaired', { id, ...journal.report });
    const messages = journal.messages() as unknown as ChatMessage[];
    // A reply that was streaming when the app stopped is kept with what had been checkpointed.
    for (const m of messages) if (m.status === 'streaming') m.status = 'stopped';
    const conv = new Conversation(meta, messages, journal, (m) => this.writeMeta(m));
    this.open.set(id, conv);
    return conv;
  }

  update(id: string, patch: Partial<ConversationMeta>): ConversationMeta {
    const conv = this.get(id);
    conv.touch(patch);
    return conv.meta;
  }

  delete(id: string): void {
    this.meta(id);
    this.open.get(id)?.close();
    this.open.delete(id);
    mkdirSync(this.trash, { recursive: true });
    renameSync(this.dir(id), join(this.trash, id));
    this.all().delete(id);
  }

  restore(id: string): ConversationMeta {
    const from = join(this.trash, id);
    if (!existsSync(from)) throw new AppError('not_found', 'This conversation can no longer be restored.');
    renameSync(from, this.dir(id));
    const meta = conversationMetaSchema.parse(JSON.parse(readFileSync(join(this.dir(id), 'meta.json'), 'utf8')));
    this.all().set(id, meta);
    return meta;
  }

  exportJson(id: string): ConversationExport {
    const conv = this.get(id);
    return { format: 'hubdesk.conversation', version: 1, meta: conv.meta, messages: conv.messages };
  }

  /** Validates the whole file first; writes into a temporary folder and renames it into place. */
  import(text: string): ConversationMeta {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new AppError('invalid_input', `This file is not JSON: ${(e as Error).message}`);
    }
    const parsed = conversationExportSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new AppError('invalid_input', `This is not a HubDesk conversation export: ${issue.message}${where}.`, {
        details: {
          issues: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.map(String), message: i.message })),
        },
      });
    }
    const ids = new Set<string>();
    for (const m of parsed.data.messages) {
      if (ids.has(m.id)) throw new AppError('invalid_input', `This export repeats message id ${m.id}.`);
      ids.add(m.id);
    }
    const id = this.all().has(parsed.data.meta.id) ? newId('c') : parsed.data.meta.id;
    const meta: ConversationMeta = { ...parsed.data.meta, id, messageCount: parsed.data.messages.length };
    const tmp = join(this.root, `.import-${randomBytes(6).toString('hex')}`);
    try {
      const journal = Journal.open(join(tmp, 'journal.jsonl'));
      journal.append(parsed.data.messages.map((msg) => ({ t: 'put' as const, msg })));
      journal.close();
      writeFileAtomic(join(tmp, 'meta.json'), JSON.stringify(meta, null, 2));
      renameSync(tmp, this.dir(id));
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
    this.all().set(id, meta);
    return meta;
  }

  close(): void {
    for (const c of this.open.values()) c.close();
    this.open.clear();
  }
}

/** A conversation as Markdown: readable, with the settings that produced it. */
export function toMarkdown(exp: ConversationExport): string {
  const { meta, messages } = exp;
  const out: string[] = [`# ${meta.title}`, ''];
  out.push(
    `- Model: \`${meta.model || '(none)'}\` (${meta.backend === 'ollama' ? 'Ollama' : `Hugging Face router, provider ${meta.provider}`})`,
  );
  const params = Object.entries(meta.params);
  if (params.length) out.push(`- Parameters: ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  out.push(`- Created: ${meta.createdAt}`, '');
  if (meta.system) out.push('## System', '', meta.system, '');
  for (const m of messages) {
    const who = m.role === 'user' ? 'User' : m.role === 'assistant' ? 'Assistant' : `Tool (${m.toolName ?? 'tool'})`;
    const mark = m.status === 'stopped' ? ' (stopped)' : m.status === 'error' ? ' (failed)' : '';
    out.push(`## ${who}${mark}`, '');
    if (m.thinking) out.push('<details><summary>Thinking</summary>', '', m.thinking, '', '</details>', '');
    if (m.content) out.push(m.content, '');
    for (const c of m.toolCalls ?? []) out.push(`> Tool call: \`${c.name}(${JSON.stringify(c.arguments)})\``, '');
    if (m.error) out.push(`> Error: ${m.error.message}`, '');
  }
  return out.join('\n');
}
