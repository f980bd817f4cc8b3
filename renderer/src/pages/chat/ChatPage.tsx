import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage, ConversationMeta } from '@shared/contract/chat';
import type { AppErrorShape } from '@shared/errors';
import { Empty, ErrorState, Loading } from '../../components/States';
import { chatFiles, chatInfo, useSendBlock } from '../../hooks/chat';
import { useChat } from '../../store/chat';
import { useRoute } from '../../store/route';
import { CodePane } from './CodePane';
import { useEngineName } from './EngineName';
import { ConversationSettings } from './ConversationSettings';
import type { MessageActions } from './Message';
import type { ToolAnswer } from './ToolMessage';
import { MessageList } from './MessageList';
import { ReplyAnnouncer } from './ReplyAnnouncer';
import { ReplyError } from './ReplyError';
import { Sidebar } from './Sidebar';
import { download } from '../../lib/download';
import './chat.css';

function readImage(file: File): Promise<string> {
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => fail(r.error);
    r.readAsDataURL(file);
  });
}

function Composer({ meta, capabilities }: { meta: ConversationMeta; capabilities: string[] }) {
  const id = meta.id;
  const draft = useChat((s) => s.drafts[id] ?? '');
  const running = useChat((s) => s.running[id]);
  const { setDraft, send, stop } = useChat.getState();
  const [images, setImages] = useState<string[]>([]);
  const fileRef = useRef<HTMLInputElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  // A new (empty) conversation is opened to be typed in: the composer takes the focus.
  const empty = meta.messageCount === 0;
  useEffect(() => {
    if (empty) inputRef.current?.focus();
  }, [id, empty]);
  const go = useRoute((s) => s.go);
  const block = useSendBlock(meta);
  const vision = capabilities.includes('vision');
  const canSend = !running && !!meta.model && !block && (draft.trim().length > 0 || images.length > 0);
  const submit = () => {
    if (!canSend) return;
    send(id, draft, images);
    setImages([]);
  };
  return (
    <div className="composer">
      {block && (
        <p className="composer-block small" role="status" data-testid="send-block">
          {block.message}{' '}
          {block.inSettings && (
            <button className="btn btn-xs" onClick={() => go('settings')}>
              Open Settings
            </button>
          )}
        </p>
      )}
      {images.length > 0 && (
        <div className="composer-images">
          {images.map((b, i) => (
            <button
              key={i}
              className="thumb"
              title="Remove"
              onClick={() => setImages(images.filter((_, j) => j !== i))}
            >
              <img src={`data:image/*;base64,${b}`} alt={`attachment ${i + 1}`} />
            </button>
          ))}
        </div>
      )}
      <div className="composer-row">
        <textarea
          ref={inputRef}
          aria-label="Message"
          data-testid="composer"
          placeholder={
            meta.model ? `Message ${meta.model}…  (Enter to send, Shift+Enter for a new line)` : 'Choose a model first'
          }
          value={draft}
          rows={3}
          onChange={(e) => setDraft(id, e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="composer-actions">
          {vision && (
            <>
              <button className="btn btn-ghost" onClick={() => fileRef.current?.click()} title="Attach images">
                Image…
              </button>
              <input
                ref={fileRef}
                type="file"
                accept="image/*"
                multiple
                hidden
                onChange={async (e) => {
                  const files = [...(e.target.files ?? [])].slice(0, 8 - images.length);
                  e.target.value = '';
                  setImages([...images, ...(await Promise.all(files.map(readImage)))]);
                }}
              />
            </>
          )}
          {running ? (
            <button className="btn btn-danger" data-testid="stop" onClick={() => stop(id)}>
              Stop
            </button>
          ) : (
            <button
              className="btn btn-primary"
              data-testid="send"
              disabled={!canSend}
              title={block?.message}
              onClick={submit}
            >
              Send
            </button>
          )}
        </div>
      </div>
      {running?.retry && <p className="muted small">{running.retry}</p>}
    </div>
  );
}

function Thread({ id }: { id: string }) {
  const conv = useChat((s) => s.convs[id]);
  const listMeta = useChat((s) => s.list.find((m) => m.id === id));
  const busy = useChat((s) => !!s.running[id]);
  const replyError = useChat((s) => s.replyError[id]);
  const focus = useChat((s) => (s.focus?.convId === id ? s.focus.messageId : undefined));
  const { open, regenerate, editOnly, selectVersion, focusMessage, answerTool, loadMore } = useChat.getState();
  const [showSettings, setShowSettings] = useState(false);
  const [showCode, setShowCode] = useState(false);
  const [capabilities, setCapabilities] = useState<string[]>([]);
  const [copied, setCopied] = useState<string>();
  const meta = conv?.meta ?? listMeta;
  const engine = useEngineName(meta ?? { backend: 'ollama', provider: 'auto' });

  useEffect(() => {
    if (!meta?.model) return setCapabilities([]);
    let live = true;
    chatInfo
      .capabilities(id)
      .then((r) => live && setCapabilities(r.capabilities))
      .catch(() => live && setCapabilities([]));
    return () => {
      live = false;
    };
  }, [id, meta?.model, meta?.backend, meta?.endpoint]);

  useEffect(() => {
    if (meta && !meta.model) setShowSettings(true);
  }, [meta]);

  // A search hit in a version not shown: once the conversation is loaded, switch to that version.
  const loaded = !!conv && !conv.loading && conv.messages.length > 0;
  useEffect(() => {
    if (focus && loaded) void focusMessage(id, focus);
  }, [focus, loaded, id, focusMessage]);

  const actions: MessageActions = useMemo(
    () => ({
      onCopy: (m: ChatMessage) =>
        void navigator.clipboard
          ?.writeText(m.content)
          .then(() => setCopied('Copied to the clipboard'))
          .catch(() => setCopied('The clipboard is not available')),
      onRegenerate: () => regenerate(id),
      onSaveEdit: (m: ChatMessage, content: string, regen: boolean) => {
        if (regen) regenerate(id, { messageId: m.id, content });
        else void editOnly(id, m.id, content);
      },
      onSelectVersion: (messageId: string) => void selectVersion(id, messageId),
      onToolAnswer: (messageId: string, answer: ToolAnswer) => answerTool(id, messageId, answer),
    }),
    [id, regenerate, editOnly, selectVersion, answerTool],
  );
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(undefined), 1500);
    return () => clearTimeout(t);
  }, [copied]);

  if (!conv || (conv.loading && !conv.messages.length)) return <Loading label="Opening the conversation…" />;
  if (conv.error)
    return (
      <ErrorState error={conv.error} title="This conversation could not be opened" onRetry={() => void open(id)} />
    );
  if (!meta) return <Loading />;

  const exportAs = async (format: 'markdown' | 'json') => {
    try {
      const r = await chatFiles.export(id, format);
      download(r.filename, r.text, r.mime);
    } catch (e) {
      setCopied(`Export failed: ${(e as AppErrorShape).message}`);
    }
  };

  return (
    <section className="thread" aria-label={meta.title} data-testid="thread">
      <header className="thread-head">
        <div className="thread-title">
          <h2 data-testid="thread-title">{meta.title}</h2>
          <span className="muted small thread-engine" title={engine.where}>
            {`${engine.name} · ${meta.model || 'no model'}`}
          </span>
        </div>
        <button className="btn btn-ghost" aria-expanded={showSettings} onClick={() => setShowSettings(!showSettings)}>
          Settings
        </button>
        <button
          className="btn btn-ghost"
          aria-expanded={showCode}
          disabled={!meta.model}
          onClick={() => setShowCode(!showCode)}
        >
          Open as code
        </button>
        <button className="btn btn-ghost" title="The messages shown, to read" onClick={() => void exportAs('markdown')}>
          Export .md
        </button>
        <button
          className="btn btn-ghost"
          title="Every version of every message, to import again"
          onClick={() => void exportAs('json')}
        >
          Export .json
        </button>
      </header>
      {showSettings && <ConversationSettings meta={meta} capabilities={capabilities} />}
      {showCode && (
        <CodePane id={id} version={`${conv.messages.length}:${meta.updatedAt}`} onClose={() => setShowCode(false)} />
      )}
      {conv.messages.length === 0 ? (
        <div className="thread-empty">
          <Empty title={meta.model ? `Start chatting with ${meta.model}` : 'Choose a model to start'}>
            {engine.where}
          </Empty>
        </div>
      ) : (
        <MessageList
          messages={conv.messages}
          versions={conv.versions}
          focusId={focus}
          busy={busy}
          actions={actions}
          paging={{
            hasOlder: !!conv.hasOlder,
            hasNewer: !!conv.hasNewer,
            ...conv.paging,
            loading: !!conv.paging?.loading,
            load: (dir) => void loadMore(id, dir),
            latest: () => void open(id),
          }}
        />
      )}
      {replyError && <ReplyError id={id} error={replyError} busy={busy} />}

      {copied && (
        <div className="copied-toast" role="status">
          {copied}
        </div>
      )}
      <ReplyAnnouncer convId={id} />
      <Composer meta={meta} capabilities={capabilities} />
    </section>
  );
}

let startingChat: string | undefined;

/**
 * Loaded with the page's code while the app is idle (see App): the conversation list, so main opens its chat store
 * then rather than on the first visit, and that visit shows the list at once (the page asks again when it mounts).
 */
export const warmChat = (): Promise<void> => useChat.getState().loadList();

export function ChatPage() {
  const params = useRoute((s) => s.params);
  const routeId = params[0];
  const { loadList, open } = useChat.getState();
  const listLoading = useChat((s) => s.listLoading);
  const list = useChat((s) => s.list);
  const create = useChat((s) => s.create);
  const go = useRoute((s) => s.go);

  // `#/chat/new/<backend>/<model>` (see newChatHref) starts a conversation with that model, then shows it.
  const newWith = routeId === 'new' ? { backend: params[1], model: params[2] } : undefined;
  useEffect(() => void loadList(), [loadList]);
  useEffect(() => {
    if (routeId !== 'new') void open(routeId);
  }, [routeId, open]);
  useEffect(() => {
    if (!newWith?.model || (newWith.backend !== 'ollama' && newWith.backend !== 'provider')) return;
    const key = `${newWith.backend}/${newWith.model}`;
    if (startingChat === key) return; // one conversation per link, even when an effect runs twice
    startingChat = key;
    void create({ backend: newWith.backend, model: newWith.model })
      .then((m) => go('chat', m.id))
      .finally(() => (startingChat = undefined));
  }, [newWith?.backend, newWith?.model, create, go]);

  return (
    <div className="chat-page">
      <Sidebar currentId={routeId} />
      {routeId === 'new' ? (
        <Loading label="Starting a new chat…" />
      ) : routeId ? (
        <Thread id={routeId} key={routeId} />
      ) : (
        <div className="thread-empty">
          {listLoading && list.length === 0 ? (
            <Loading />
          ) : (
            <Empty
              title={list.length ? 'Pick a conversation' : 'No conversations yet'}
              action={
                <button className="btn btn-primary" onClick={() => void create().then((m) => go('chat', m.id))}>
                  New chat
                </button>
              }
            >
              Chat with a model pulled into Ollama, with a hosted model through the Hugging Face inference router, or
              with a server added under Settings → Endpoints (llama.cpp, LM Studio, vLLM…).
            </Empty>
          )}
        </div>
      )}
    </div>
  );
}
