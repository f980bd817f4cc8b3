import { memo, useState } from 'react';
import type { ChatMessage } from '@shared/contract/chat-message';
import { WEB_TOOLS } from '@shared/contract/chat-conversation';
import type { AppErrorShape } from '@shared/errors';
import { formatElapsed } from '../../lib/format';

export type ToolAnswer = 'once' | 'always' | 'deny' | 'cancel';

function stateText(m: ChatMessage): string {
  if (m.status === 'streaming') return m.toolState === 'approval' ? 'waiting for your approval' : 'running…';
  if (m.toolDecision === 'deny') return 'declined';
  if (m.status === 'stopped') return 'stopped';
  if (m.status === 'interrupted') return 'interrupted';
  const took = m.durationMs !== undefined ? ` in ${formatElapsed(m.durationMs)}` : '';
  return m.status === 'error' ? `failed${took}` : `done${took}`;
}

/**
 * A tool call and its result, as one card: the source, the tool and its arguments; while it waits, Allow once /
 * Always in this chat / Deny; while it runs, Cancel; then its result (text, images) or error, and how long it took.
 */
export const ToolMessage = memo(function ToolMessage({
  m,
  onAnswer,
}: {
  m: ChatMessage;
  onAnswer(messageId: string, answer: ToolAnswer): Promise<void>;
}) {
  const [sent, setSent] = useState<ToolAnswer>();
  const [error, setError] = useState<AppErrorShape>();
  const waiting = m.status === 'streaming' && m.toolState === 'approval';
  const running = m.status === 'streaming' && m.toolState === 'running';
  const answer = (a: ToolAnswer) => {
    setSent(a);
    setError(undefined);
    onAnswer(m.id, a).catch((e: AppErrorShape) => {
      setSent(undefined);
      setError(e);
    });
  };
  const source = m.toolSource === WEB_TOOLS ? 'web' : m.toolSource;
  const args = m.toolArguments ? JSON.stringify(m.toolArguments, null, 2) : undefined;
  const failed = m.status === 'error' || m.status === 'stopped' || m.status === 'interrupted';
  return (
    <div
      className={`msg msg-tool${failed ? ' msg-failed' : ''}`}
      data-testid="msg-tool"
      data-status={m.status}
      data-tool-state={m.toolState ?? ''}
    >
      <div className="tool-card">
        <div className="tool-head">
          {source && <span className="badge">{source}</span>}
          <code className="tool-name">{m.toolName ?? 'tool'}</code>
          <span className="muted" data-testid="tool-state">
            {stateText(m)}
          </span>
          {m.toolDecision === 'always' || m.toolDecision === 'auto' ? (
            <span className="muted"> · allowed always here</span>
          ) : null}
        </div>
        {args && args !== '{}' && (
          <pre className="tool-args" aria-label={`Arguments of ${m.toolName ?? 'the tool'}`}>
            {args}
          </pre>
        )}
        {waiting && (
          <div className="tool-approval" role="group" aria-label={`Run ${m.toolName ?? 'this tool'}?`}>
            <button className="btn btn-primary btn-sm" disabled={!!sent} onClick={() => answer('once')}>
              Allow once
            </button>
            <button className="btn btn-sm" disabled={!!sent} onClick={() => answer('always')}>
              Always in this chat
            </button>
            <button className="btn btn-ghost btn-sm" disabled={!!sent} onClick={() => answer('deny')}>
              Deny
            </button>
          </div>
        )}
        {running && (
          <div className="tool-running">
            <span className="spinner" aria-hidden="true" /> Running {m.toolName}…{' '}
            <button className="btn btn-ghost btn-sm" disabled={sent === 'cancel'} onClick={() => answer('cancel')}>
              Cancel
            </button>
          </div>
        )}
        {error && (
          <p className="msg-note msg-note-error" role="alert">
            {error.message}
          </p>
        )}
        {m.status !== 'streaming' && m.error && (
          <p className="msg-note msg-note-error" data-testid="tool-error">
            {m.error.message}
          </p>
        )}
        {m.status === 'complete' && (
          <details className="tool-output" open={m.content.length < 600}>
            <summary>
              Result{m.content.length >= 600 ? ` (${m.content.length.toLocaleString()} characters)` : ''}
            </summary>
            <pre className="tool-result" data-testid="tool-result">
              {m.content}
            </pre>
          </details>
        )}
        {m.images?.length ? (
          <div className="msg-images">
            {m.images.map((b64, i) => (
              <img key={i} src={`data:image/*;base64,${b64}`} alt={`${m.toolName ?? 'tool'} image ${i + 1}`} />
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
});
