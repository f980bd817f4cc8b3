import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { AppErrorShape } from '@shared/errors';
import { Empty, ErrorState, Loading } from '../../components/States';
import { shownModel, useEngineDown, useEngineName } from '../../features/engines/registry';
import { useCapabilities } from '../../hooks/chat';
import { download } from '../../lib/download';
import { useChat } from '../../store/chat';
import { copyText } from './clipboard';
import { useFleeting } from './fleeting';
import { CodePane } from './CodePane';
import { Composer } from './Composer';
import { ConversationSettings } from './ConversationSettings';
import { LocalOffer } from './LocalOffer';
import { MORE_SETTINGS_ID } from './MoreSettings';
import type { MessageActions } from './Message';
import { MessageList } from './MessageList';
import { ReplyAnnouncer } from './ReplyAnnouncer';
import { ReplyError, shownInMessage } from './ReplyError';
import { ThreadMenu } from './ThreadMenu';
import type { ToolAnswer } from './ToolMessage';

/**
 * One conversation: its header (title, More settings and the Export menu; engine and model, Tools, Think), its
 * messages (with the code pane beside them) and the composer.
 */
export function Thread({ id }: { id: string }) {
  const conv = useChat((s) => s.convs[id]);
  const listMeta = useChat((s) => s.list.find((m) => m.id === id));
  const busy = useChat((s) => !!s.running[id]);
  const replyError = useChat((s) => s.replyError[id]);
  const focus = useChat((s) => (s.focus?.convId === id ? s.focus.messageId : undefined));
  const { open, update, regenerate, editOnly, selectVersion, focusMessage, answerTool, loadMore, exportFile } =
    useChat.getState();
  const [showMore, setShowMore] = useState(false);
  const moreToggle = useRef<HTMLButtonElement>(null);
  const [showCode, setShowCode] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  /** What Copy did: copied, or why not. */
  const [copied, setCopied] = useState<string>();
  /** Why the last export failed. */
  const [exportError, setExportError] = useState<AppErrorShape>();
  const meta = conv?.meta ?? listMeta;
  const capabilities = useCapabilities(id, meta);
  const engine = useEngineName(meta ?? { backend: 'ollama', provider: 'auto' });
  // The engine cannot answer on this computer (Ollama not running): the built-in engine is offered instead.
  const down = useEngineDown(meta?.backend ?? 'ollama');

  // A search hit in a version not shown: once the conversation is loaded, switch to that version.
  const loaded = !!conv && !conv.loading && conv.messages.length > 0;
  useEffect(() => {
    if (focus && loaded) void focusMessage(id, focus);
  }, [focus, loaded, id, focusMessage]);

  const actions: MessageActions = useMemo(
    () => ({
      onCopy: async (m: ChatMessage) => {
        const ok = await copyText(m.content);
        if (ok !== undefined) setCopied(ok ? 'Copied to the clipboard' : 'The clipboard is not available');
      },
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
  useFleeting(copied, setCopied);
  useFleeting(exportError, setExportError);

  if (!conv || (conv.loading && !conv.messages.length)) return <Loading label="Opening the conversation…" />;
  if (conv.error)
    return (
      <ErrorState error={conv.error} title="This conversation could not be opened" onRetry={() => void open(id)} />
    );
  if (!meta) return <Loading />;

  const exportAs = async (format: 'markdown' | 'json') => {
    try {
      const r = await exportFile(id, format);
      download(r.filename, r.text, r.mime);
    } catch (e) {
      setExportError(e as AppErrorShape);
    }
  };

  return (
    <section className="thread" aria-label={meta.title} data-testid="thread">
      <header className="thread-head">
        <div className="thread-head-top">
          <div className="thread-title">
            <h2 data-testid="thread-title" title={meta.title}>
              {meta.title}
            </h2>
            <span className="muted small thread-engine" title={engine.where}>
              {`${engine.name} · ${meta.model ? shownModel(meta) : 'no model'}`}
            </span>
          </div>
          <button
            className="btn btn-ghost btn-sm"
            aria-expanded={showMore}
            aria-controls={showMore ? MORE_SETTINGS_ID : undefined}
            ref={moreToggle}
            onClick={() => setShowMore(!showMore)}
          >
            More settings
          </button>
          <ThreadMenu
            label="Export"
            buttonRef={menuButton}
            items={[
              {
                label: showCode ? 'Close code' : 'Open as code',
                title: 'The conversation as a runnable snippet (Python, JavaScript, curl)',
                disabled: !meta.model,
                run: () => setShowCode(!showCode),
              },
              { label: 'Export .md', title: 'The messages shown, to read', run: () => void exportAs('markdown') },
              {
                label: 'Export .json',
                title: 'Every version of every message, to import again',
                run: () => void exportAs('json'),
              },
            ]}
          />
        </div>
        <ConversationSettings
          meta={meta}
          capabilities={capabilities}
          more={showMore}
          onCloseMore={() => {
            setShowMore(false);
            moreToggle.current?.focus();
          }}
        />
      </header>
      {/* The code pane takes its own column beside the messages: the last one and the composer stay in view. */}
      <div className="thread-body">
        {conv.messages.length === 0 ? (
          <div className="thread-empty">
            <div className="thread-empty-stack">
              <Empty title={meta.model ? `Start chatting with ${shownModel(meta)}` : 'Choose a model to start'}>
                {down ?? engine.where}
              </Empty>
              {down && <LocalOffer onUse={(model) => void update(id, { backend: 'local', model })} />}
            </div>
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
        {showCode && (
          <CodePane
            id={id}
            version={`${conv.messages.length}:${meta.updatedAt}`}
            onClose={() => {
              setShowCode(false);
              menuButton.current?.focus();
            }}
          />
        )}
      </div>
      {replyError && !shownInMessage(replyError, conv.messages) && (
        <ReplyError error={replyError} busy={busy} onRetry={() => regenerate(id)} />
      )}

      {copied && (
        <div className="copied-toast" role="status">
          {copied}
        </div>
      )}
      {exportError && (
        <div className="copied-toast" role="status">
          Export failed: {exportError.message}
        </div>
      )}
      <ReplyAnnouncer convId={id} />
      <Composer meta={meta} capabilities={capabilities} />
    </section>
  );
}
