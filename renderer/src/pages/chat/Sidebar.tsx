import { useEffect, useRef, useState } from 'react';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { Icon } from '../../components/Icon';
import { ErrorState, Loading } from '../../components/States';
import { shownModel } from '../../features/engines/registry';
import { useStartChat } from '../../hooks/chat';
import { useChat } from '../../store/chat';
import { useRoute } from '../../store/route';
import { ChatFiles } from './ChatFiles';
import { SearchResults } from './SearchResults';

function ConversationItem({
  meta,
  active,
  streaming,
}: {
  meta: ConversationMeta;
  active: boolean;
  streaming: boolean;
}) {
  const { update, remove } = useChat.getState();
  const go = useRoute((s) => s.go);
  const [renaming, setRenaming] = useState(false);
  return (
    <li className={`conv-item${active ? ' active' : ''}`} data-testid="conv-item">
      {renaming ? (
        <input
          className="conv-rename"
          aria-label="Conversation title"
          defaultValue={meta.title}
          autoFocus
          onKeyDown={(e) => {
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
            if (e.key === 'Escape') setRenaming(false);
          }}
          onBlur={(e) => {
            setRenaming(false);
            const t = e.target.value.trim();
            if (t && t !== meta.title) void update(meta.id, { title: t });
          }}
        />
      ) : (
        <button className="conv-open" onClick={() => go('chat', meta.id)} onDoubleClick={() => setRenaming(true)}>
          <span className="conv-title">
            {meta.pinned && (
              <span className="conv-pin" aria-label="pinned">
                ★{' '}
              </span>
            )}
            {meta.title}
          </span>
          <span className="conv-sub">
            {streaming && <span className="live-dot" aria-label="streaming" />}
            {meta.model ? shownModel(meta) : 'no model'} · {meta.messageCount} msg
          </span>
        </button>
      )}
      <span className="conv-tools">
        <button className="icon-btn" title="Rename" aria-label="Rename" onClick={() => setRenaming(true)}>
          ✎
        </button>
        <button
          className="icon-btn"
          title={meta.pinned ? 'Unpin' : 'Pin'}
          aria-label={meta.pinned ? 'Unpin' : 'Pin'}
          onClick={() => void update(meta.id, { pinned: !meta.pinned })}
        >
          {meta.pinned ? '★' : '☆'}
        </button>
        <button className="icon-btn" title="Delete" aria-label="Delete" onClick={() => void remove(meta.id)}>
          <Icon name="close" size={14} />
        </button>
      </span>
    </li>
  );
}

/**
 * The end of the list while more conversations follow: coming near it (400 px ahead, by scrolling or moving the focus
 * down the list) reads the next page; it says so while that page is on its way, or why it failed, with a retry.
 */
function ListEnd() {
  const more = useChat((s) => s.listMore);
  const { loadMoreList } = useChat.getState();
  const ref = useRef<HTMLLIElement>(null);
  const waiting = !!more?.loading || !!more?.error;
  useEffect(() => {
    const el = ref.current;
    if (!el || waiting || typeof IntersectionObserver === 'undefined') return;
    // Observing again after each page: the end still in view (a tall window) reads the next one too.
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMoreList(), {
      root: el.closest('.conv-list'),
      rootMargin: '400px 0px',
    });
    io.observe(el);
    return () => io.disconnect();
  }, [waiting, loadMoreList]);
  return (
    <li ref={ref} className="conv-list-end small" data-testid="conv-list-end">
      {more?.error ? (
        <span role="alert">
          <span className="field-error">{more.error.message}</span>{' '}
          <button className="btn btn-xs" onClick={() => void loadMoreList()}>
            Try again
          </button>
        </span>
      ) : more?.loading ? (
        <span className="muted" role="status">
          Loading more conversations…
        </span>
      ) : (
        <button className="btn btn-ghost btn-xs" onClick={() => void loadMoreList()}>
          More conversations
        </button>
      )}
    </li>
  );
}

export function Sidebar({ currentId }: { currentId?: string }) {
  const { list, listNext, listLoading, listError, query, running, undo } = useChat();
  const { loadList, search, restore } = useChat.getState();
  const startChat = useStartChat();
  useEffect(() => {
    if (!undo) return;
    const t = setTimeout(() => useChat.setState({ undo: undefined }), 10_000);
    return () => clearTimeout(t);
  }, [undo]);

  return (
    <aside className="conv-sidebar" aria-label="Conversations">
      <div className="conv-head">
        <h1>Chat</h1>
        <button className="btn btn-primary" data-testid="new-chat" onClick={startChat}>
          New chat
        </button>
      </div>
      <input
        className="conv-search"
        type="search"
        placeholder="Search titles and messages"
        aria-label="Search conversations"
        title='Every word as a prefix; "quoted words" as a phrase'
        value={query}
        onChange={(e) => void search(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && query) {
            e.preventDefault();
            void search('');
          }
        }}
      />
      {query.trim() ? (
        <SearchResults />
      ) : listLoading && list.length === 0 ? (
        <Loading label="Loading conversations…" />
      ) : listError ? (
        <ErrorState error={listError} title="Conversations could not be read" onRetry={() => void loadList()} />
      ) : list.length === 0 ? (
        <p className="muted small conv-none">No conversations yet.</p>
      ) : (
        <ul className="conv-list">
          {list.map((m) => (
            <ConversationItem key={m.id} meta={m} active={m.id === currentId} streaming={!!running[m.id]} />
          ))}
          {listNext && <ListEnd />}
        </ul>
      )}
      <ChatFiles canExport={list.length > 0} currentId={currentId} />
      {undo && (
        <div className="undo-toast" role="status">
          <span>Deleted “{undo.title}”</span>
          <button className="btn btn-xs" onClick={() => void restore()}>
            Undo
          </button>
        </div>
      )}
    </aside>
  );
}
