import type { ExcerptPart } from '@shared/contract/chat-search';
import { ErrorState, Loading } from '../../components/States';
import { useChat } from '../../store/chat';
import { useRoute } from '../../store/route';

/** Matched words in <mark>, the rest as text: excerpts never go through HTML. */
function Excerpt({ parts }: { parts: ExcerptPart[] }) {
  return <>{parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}

/** The search box's results: conversations with the most recent matches first, each with its matching messages. */
export function SearchResults() {
  const { results, searching, searchError, query } = useChat();
  const { search, focusMessage } = useChat.getState();
  const go = useRoute((s) => s.go);
  if (searchError) return <ErrorState error={searchError} title="Search failed" onRetry={() => void search(query)} />;
  if (searching && results.length === 0) return <Loading label="Searching…" />;
  if (results.length === 0) return <p className="muted small conv-none">No conversation matches “{query}”.</p>;
  const open = (convId: string, messageId?: string) => {
    go('chat', convId);
    if (messageId) void focusMessage(convId, messageId);
  };
  return (
    <ul className="conv-list search-results" aria-label="Search results" data-testid="search-results">
      {results.map((r) => (
        <li key={r.meta.id} className="search-result" data-testid="search-result">
          <button className="conv-open" onClick={() => open(r.meta.id, r.hits[0]?.messageId)}>
            <span className="conv-title">{r.title ? <Excerpt parts={r.title} /> : r.meta.title}</span>
            <span className="conv-sub">
              {r.meta.model || 'no model'} · {r.meta.messageCount} msg
            </span>
          </button>
          {r.hits.map((h) => (
            <button
              key={h.messageId}
              className="search-hit"
              data-testid="search-hit"
              onClick={() => open(r.meta.id, h.messageId)}
            >
              <span className="search-role">
                {h.role === 'user' ? 'You' : h.role === 'assistant' ? 'Reply' : 'Tool'}
              </span>{' '}
              <Excerpt parts={h.excerpt} />
            </button>
          ))}
        </li>
      ))}
    </ul>
  );
}
