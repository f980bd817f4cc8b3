import { useEffect, useRef, useState } from 'react';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { shownModel } from '../../features/engines/registry';
import { useSendBlock } from '../../hooks/chat';
import { useChat } from '../../store/chat';
import { useRoute } from '../../store/route';
import { AttachButton } from './documents/AttachButton';
import { ConversationDocs } from './documents/ConversationDocs';
import { DropZone } from './documents/DropZone';

function readImage(file: File): Promise<string> {
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => fail(r.error);
    r.readAsDataURL(file);
  });
}

/** The message box under a conversation: text, images for a model that sees, Send and Stop. */
export function Composer({ meta, capabilities }: { meta: ConversationMeta; capabilities: string[] }) {
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
      <ConversationDocs meta={meta} />
      <DropZone conversation={id} />
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
            meta.model
              ? `Message ${shownModel(meta)}…  (Enter to send, Shift+Enter for a new line)`
              : 'Choose a model first'
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
          <AttachButton target={{ conversation: id }} />
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
      {running?.retry && (
        <p className="muted small" role="status">
          {running.retry}
        </p>
      )}
    </div>
  );
}
