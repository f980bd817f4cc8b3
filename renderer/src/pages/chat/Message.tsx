import { Fragment, memo, useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '@shared/contract/chat-message';
import { Citations } from './documents/Citations';
import { MarkdownBody, Thinking } from './MarkdownBody';
import { ReplyError } from './ReplyError';
import { ReplyWaiting } from './ReplyWaiting';
import { ToolMessage, type ToolAnswer } from './ToolMessage';

export interface MessageActions {
  onCopy(m: ChatMessage): void;
  onRegenerate(): void;
  onSaveEdit(m: ChatMessage, content: string, regenerate: boolean): void;
  onSelectVersion(messageId: string): void;
  onToolAnswer(messageId: string, answer: ToolAnswer): Promise<void>;
}

/** ‹ 2/3 ›: the versions of a regenerated reply or an edited question; the conversation follows the one shown. */
function Versions({
  id,
  versions,
  busy,
  onSelect,
}: {
  id: string;
  versions: string[];
  busy: boolean;
  onSelect(id: string): void;
}) {
  const i = versions.indexOf(id);
  return (
    <span className="msg-versions" data-testid="msg-versions">
      <button
        className="btn btn-ghost btn-xs"
        aria-label="Previous version"
        disabled={busy || i <= 0}
        onClick={() => onSelect(versions[i - 1])}
      >
        ‹
      </button>
      <span aria-label={`version ${i + 1} of ${versions.length}`}>
        {i + 1}/{versions.length}
      </span>
      <button
        className="btn btn-ghost btn-xs"
        aria-label="Next version"
        disabled={busy || i >= versions.length - 1}
        onClick={() => onSelect(versions[i + 1])}
      >
        ›
      </button>
    </span>
  );
}

const fmt = (n: number, digits = 0) => n.toLocaleString(undefined, { maximumFractionDigits: digits });
const tokens = (n: number) => `${fmt(n)} ${n === 1 ? 'token' : 'tokens'}`;
const duration = (ms: number) => (ms < 1000 ? `${fmt(ms)} ms` : `${fmt(ms / 1000, 2)} s`);
const sourceTitle = {
  server: 'Speed as reported by the server',
  measured: 'Speed measured by HubDesk from the reply as it streamed (the server reported none)',
};

/** The speed of a reply, on every engine, and where the figures come from (the server's own, or measured). */
function Figures({ m }: { m: ChatMessage }) {
  const f = m.figures;
  if (!f) return null;
  const parts: string[] = [];
  if (f.evalTokens !== undefined) parts.push(tokens(f.evalTokens));
  if (f.tokensPerSecond !== undefined) parts.push(`${fmt(f.tokensPerSecond, 1)} tok/s`);
  if (f.ttftMs !== undefined) parts.push(`first token ${duration(f.ttftMs)}`);
  if (f.promptTokens !== undefined)
    parts.push(
      `prompt ${tokens(f.promptTokens)}${f.promptTokensPerSecond !== undefined ? ` at ${fmt(f.promptTokensPerSecond, 1)} tok/s` : ''}`,
    );
  if (f.loadMs !== undefined) parts.push(`load ${fmt(f.loadMs)} ms`);
  if (f.totalMs !== undefined) parts.push(`total ${fmt(f.totalMs / 1000, 2)} s`);
  if (f.doneReason === 'length') parts.push('stopped at the token limit');
  if (!parts.length) return null;
  return (
    <span className="msg-figures" data-testid="msg-figures" title={f.source && sourceTitle[f.source]}>
      {/* Each figure whole on one line: a narrow reply wraps between them, never inside one. */}
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          <span className="msg-figure">{p}</span>
        </Fragment>
      ))}
      {f.source && <span className="msg-figures-source"> · {f.source}</span>}
    </span>
  );
}

function Editor({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave(text: string, regenerate: boolean): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="msg-editor">
      <textarea
        ref={ref}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={Math.min(12, text.split('\n').length + 1)}
        aria-label="Edit message"
      />
      <div className="msg-editor-actions">
        <button className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button className="btn" disabled={!text.trim()} onClick={() => onSave(text, false)}>
          Save
        </button>
        <button className="btn btn-primary" disabled={!text.trim()} onClick={() => onSave(text, true)}>
          Save and regenerate
        </button>
      </div>
    </div>
  );
}

/** The calls a reply made; each one's card (arguments, approval, result) follows as a tool message. */
function ToolCalls({ m }: { m: ChatMessage }) {
  if (!m.toolCalls?.length) return null;
  return (
    <div className="msg-toolcalls muted" data-testid="tool-call">
      Called {m.toolCalls.map((c) => c.name).join(', ')}
    </div>
  );
}

/**
 * A question the conversation ends on, not answered yet: typically one saved with "Save" (a new version; the
 * earlier one keeps its reply). Getting a reply is one click.
 */
function NoReply({ edited, onAnswer }: { edited: boolean; onAnswer(): void }) {
  return (
    <div className="msg-note" data-testid="msg-no-reply">
      {edited
        ? 'Saved as a new version, not answered yet: the earlier version keeps its reply. '
        : 'Not answered yet. '}
      <button className="btn btn-ghost btn-xs" onClick={onAnswer}>
        Get a reply
      </button>
    </div>
  );
}

interface Props {
  m: ChatMessage;
  /** This message's versions, when it has more than one. */
  versions?: string[];
  /** The last message of the conversation (the end of its path, shown). */
  isLast: boolean;
  busy: boolean;
  actions: MessageActions;
}

/** One message; memoized, so history rows do not re-render while a reply streams. */
export const Message = memo(function Message({ m, versions, isLast, busy, actions }: Props) {
  const [editing, setEditing] = useState(false);

  if (m.role === 'tool') return <ToolMessage m={m} onAnswer={actions.onToolAnswer} />;

  const isUser = m.role === 'user';
  const streaming = m.status === 'streaming';
  // A reply with nothing to say under it (imported: no model, no figures, one version) gets no line for its
  // hover actions: they float over its end instead of leaving an empty row under every reply.
  const bareMeta = !isUser && !m.model && !m.figures && !(versions && versions.length > 1);
  return (
    <div
      className={`msg ${isUser ? 'msg-user' : 'msg-assistant'}`}
      data-testid={`msg-${m.role}`}
      data-status={m.status}
    >
      <div className="msg-bubble">
        {m.images?.length ? (
          <div className="msg-images">
            {m.images.map((b64, i) => (
              <img key={i} src={`data:image/*;base64,${b64}`} alt={`attachment ${i + 1}`} />
            ))}
          </div>
        ) : null}
        {!editing && <Thinking thinking={m.thinking} liveId={streaming ? m.id : undefined} />}
        {editing ? (
          <Editor
            initial={m.content}
            onCancel={() => setEditing(false)}
            onSave={(text, regen) => {
              setEditing(false);
              actions.onSaveEdit(m, text, regen);
            }}
          />
        ) : isUser ? (
          <div className="msg-body msg-plain">{m.content}</div>
        ) : (
          <MarkdownBody text={m.content} liveId={streaming ? m.id : undefined} />
        )}
        {streaming && !isUser && <ReplyWaiting id={m.id} />}
        <ToolCalls m={m} />
        {!isUser && m.context && !streaming && <Citations context={m.context} text={m.content} />}
        {m.notice && (
          <div className="msg-note" data-testid="msg-notice">
            {m.notice}
          </div>
        )}
        {m.status === 'stopped' && (
          <div className="msg-note" data-testid="msg-stopped">
            Stopped
          </div>
        )}
        {m.status === 'interrupted' && (
          <div className="msg-note" data-testid="msg-interrupted">
            Interrupted — HubDesk stopped while this reply was being written; the text so far is kept
          </div>
        )}
        {m.status === 'error' && m.error && (
          <ReplyError error={m.error} busy={busy} onRetry={isLast ? actions.onRegenerate : undefined} />
        )}
        {isUser && isLast && !busy && !editing && (
          <NoReply edited={!!versions && versions.length > 1} onAnswer={actions.onRegenerate} />
        )}
      </div>
      {m.status !== 'streaming' && !editing && (
        <div className={`msg-meta${bareMeta ? ' msg-meta-bare' : ''}`}>
          {versions && versions.length > 1 && (
            <Versions id={m.id} versions={versions} busy={busy} onSelect={actions.onSelectVersion} />
          )}
          {!isUser && m.model && <span className="muted">{m.model}</span>}
          <Figures m={m} />
          <span className="msg-actions">
            <button className="btn btn-ghost btn-xs" onClick={() => actions.onCopy(m)} title="Copy message">
              Copy
            </button>
            {isUser && !busy && (
              <button className="btn btn-ghost btn-xs" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
            {!isUser && isLast && !busy && (
              <button className="btn btn-ghost btn-xs" onClick={actions.onRegenerate}>
                Regenerate
              </button>
            )}
          </span>
        </div>
      )}
    </div>
  );
});
