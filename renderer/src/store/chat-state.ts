import type { StoreApi } from 'zustand';
import type { ChatListCursor } from '@shared/contract/chat';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { ChatSearchResult } from '@shared/contract/chat-search';
import type { Input, Output } from '@shared/contract';
import type { AppErrorShape } from '@shared/errors';

export type PageDir = 'older' | 'newer';

export interface ConvData {
  meta?: ConversationMeta;
  messages: ChatMessage[];
  /** Message id → its versions (oldest first), for messages that have more than one. */
  versions?: Record<string, string[]>;
  /** `messages` is a window of a long conversation: earlier or later ones come with `loadMore`. */
  hasOlder?: boolean;
  hasNewer?: boolean;
  /** Loading earlier or later messages (scrolled to the top or the bottom), or why that failed. */
  paging?: { dir: PageDir; loading: boolean; error?: AppErrorShape };
  loading: boolean;
  error?: AppErrorShape;
}

interface Running {
  cancel(): void;
  retry?: string;
  /**
   * The reply `id` waits for the model, which is answering as many requests as it can: `ahead` in front of it.
   * Until its first text arrives.
   */
  waiting?: { id: string; ahead: number };
}

export interface ChatState {
  /** The pages of the conversation list read so far; `listNext` asks for the next one. */
  list: ConversationMeta[];
  listNext?: ChatListCursor;
  listLoading: boolean;
  listError?: AppErrorShape;
  /** The next page is on its way, or why it failed. */
  listMore?: { loading: boolean; error?: AppErrorShape };
  /** The search box: titles and message text (chat.search). */
  query: string;
  results: ChatSearchResult[];
  searching: boolean;
  searchError?: AppErrorShape;
  /** A message to bring into view once its conversation is open (a search hit). */
  focus?: { convId: string; messageId: string };
  currentId?: string;
  convs: Record<string, ConvData>;
  running: Record<string, Running>;
  /** The last error of a reply per conversation, shown above the composer. */
  replyError: Record<string, AppErrorShape | undefined>;
  /** Typed but not sent, per conversation: never lost on an error. */
  drafts: Record<string, string>;
  undo?: { id: string; title: string };
  /** The list's first page, read afresh. */
  loadList(): Promise<void>;
  /** The list's next page (scrolled near its end), when there is one and none is on its way. */
  loadMoreList(): Promise<void>;
  search(query: string): Promise<void>;
  /** Opens a conversation at a message: on the selected path, or by switching to the version that holds it. */
  focusMessage(convId: string, messageId: string): Promise<void>;
  open(id: string | undefined): Promise<void>;
  /** Pages in the messages before the first one shown (chat.older) or after the last (chat.newer). */
  loadMore(id: string, dir: PageDir): Promise<void>;
  create(init?: Partial<ConversationMeta>): Promise<ConversationMeta>;
  update(id: string, patch: Input<'chat.update'>['patch']): Promise<void>;
  remove(id: string): Promise<void>;
  restore(): Promise<void>;
  setDraft(id: string, text: string): void;
  send(id: string, text: string, images?: string[]): void;
  regenerate(id: string, edit?: { messageId: string; content: string }): void;
  editOnly(id: string, messageId: string, content: string): Promise<void>;
  selectVersion(id: string, messageId: string): Promise<void>;
  /** Answers a tool call of the reply being written: allow once / always here / deny, or cancel a running one. */
  answerTool(id: string, messageId: string, answer: Input<'chat.toolDecision'>['decision']): Promise<void>;
  stop(id: string): void;
  /**
   * One conversation or an "Export all" archive, of any length; resolves with what was imported. One already here
   * is refused (`conflict`, `details.duplicates`) unless `asCopy`.
   */
  importJson(text: string, asCopy?: boolean): Promise<ConversationMeta[]>;
  /** One conversation as a file to download: Markdown to read, or JSON with every version to import again. */
  exportFile(id: string, format: 'markdown' | 'json'): Promise<Output<'chat.export'>>;
  /** Every conversation in one archive file. */
  exportAll(): Promise<Output<'chat.exportAll'>>;
}

/** What each part of the chat store (chat-library, chat-reply, chat-versions) is built from. */
export interface ChatKit {
  set: StoreApi<ChatState>['setState'];
  get: StoreApi<ChatState>['getState'];
  /** Changes one conversation's data (created empty when not there yet). */
  patchConv(id: string, fn: (c: ConvData) => Partial<ConvData>): void;
  /** A conversation's new metadata, in the list and in its open view. */
  refreshMeta(meta: ConversationMeta): void;
  /** Reloads a conversation's path and versions (after a regenerate or an edit changed them), back to `around`. */
  reload(id: string, around?: string): Promise<void>;
}
