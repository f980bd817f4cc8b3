import { useEffect } from 'react';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useNewChat, useStartChat } from '../../hooks/chat';
import { conversationToReopen, useChat } from '../../store/chat';
import { dropIfUntouched } from '../../store/chat-untouched';
import { hrefFor, useRoute } from '../../store/route';
import { useStatus } from '../../store/status';
import { LocalOffer } from './LocalOffer';
import { Sidebar } from './Sidebar';
import { Thread } from './Thread';
import './chat.css';

/**
 * Loaded with the page's code while the app is idle (see App): the conversation list, so main opens its chat store
 * then rather than on the first visit, and that visit shows the list at once (the page asks again when it mounts).
 */
export const warmChat = (): Promise<void> => useChat.getState().loadList();

export function ChatPage() {
  const params = useRoute((s) => s.params);
  const here = useRoute((s) => s.page === 'chat');
  const list = useChat((s) => s.list);
  // No conversation in the address: the one open last (or the newest) opens, in place of the address, so Back
  // leaves the chat page rather than landing here again. Not once the address has moved to another page.
  const reopen = params[0] || !here ? undefined : conversationToReopen(list);
  const routeId = params[0] ?? reopen;
  const { loadList, open } = useChat.getState();
  const listLoading = useChat((s) => s.listLoading);
  const startChat = useStartChat();
  const noOllama = useStatus((s) => s.ollama?.reachable === false);

  const starting = useNewChat(routeId === 'new' ? params.slice(1) : undefined);
  useEffect(() => void loadList(), [loadList]);
  useEffect(() => {
    if (reopen) location.replace(hrefFor('chat', reopen));
  }, [reopen]);
  useEffect(() => {
    if (routeId !== 'new') void open(routeId);
  }, [routeId, open]);
  // Left without a word written (another conversation, another page): an empty "New chat" is not kept. After the
  // route has settled, so an effect run twice (StrictMode) or a reload of the same address keeps it.
  useEffect(() => {
    if (!routeId || routeId === 'new') return;
    return () =>
      void setTimeout(() => {
        const r = useRoute.getState();
        if (r.page !== 'chat' || r.params[0] !== routeId) void dropIfUntouched(routeId);
      });
  }, [routeId]);
  return (
    <div className="chat-page">
      <Sidebar currentId={routeId} />
      {routeId === 'new' ? (
        starting.error ? (
          <div className="thread-empty">
            <ErrorState title="The chat could not be started" error={starting.error} onRetry={starting.retry} />
          </div>
        ) : (
          <Loading label="Starting a new chat…" delayMs={250} />
        )
      ) : routeId ? (
        <Thread id={routeId} key={routeId} />
      ) : (
        <div className="thread-empty">
          {listLoading && list.length === 0 ? (
            <Loading />
          ) : (
            <div className="thread-empty-stack">
              <Empty
                title="No conversations yet"
                action={
                  <button className="btn btn-primary" onClick={startChat}>
                    New chat
                  </button>
                }
              >
                {noOllama
                  ? 'Ollama is not answering on this computer. Chat with a GGUF model in the built-in engine, with a hosted model through the Hugging Face inference router, or with a server added under Settings → Endpoints.'
                  : 'Chat with a model pulled into Ollama, with a hosted model through the Hugging Face inference router, or with a server added under Settings → Endpoints (llama.cpp, LM Studio, vLLM…).'}
              </Empty>
              {noOllama && <LocalOffer />}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
