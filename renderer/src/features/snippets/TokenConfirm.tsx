import { useRef } from 'react';
import type { SnippetsResult } from '@shared/contract/snippets';
import { ExternalLink } from '../../components/ExternalLink';
import { useDialog } from '../../components/useDialog';
import { hrefFor } from '../../store/route';

/**
 * "Insert my token": with no token set it says so (and where to set one) instead of asking; with one set it asks
 * for confirmation, since the real token will be written into the code.
 */
export function TokenConfirm({
  tokenSet,
  onConfirm,
  onCancel,
}: {
  tokenSet: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  if (!tokenSet)
    return (
      <div className="sw-confirm" role="alert" data-testid="no-token">
        <p>
          No token set: there is no Hugging Face token to insert. <a href={hrefFor('settings')}>Set one in Settings</a>,
          then insert it here.
        </p>
        <button className="btn sw-small" onClick={onCancel} autoFocus>
          OK
        </button>
      </div>
    );
  return <ConfirmToken onConfirm={onConfirm} onCancel={onCancel} />;
}

/** The confirmation itself: a small alert dialog that holds the focus (Cancel first) until answered. */
function ConfirmToken({ onConfirm, onCancel }: { onConfirm(): void; onCancel(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useDialog(ref, onCancel, '[data-cancel]');
  return (
    <div ref={ref} className="sw-confirm" role="alertdialog" aria-label="Insert your token">
      <p>
        This writes your real Hugging Face token into the snippets. Anyone who sees the code can use your account. Keep
        it out of repositories and screenshots.
      </p>
      <button className="btn btn-danger sw-small" onClick={onConfirm} data-testid="confirm-token">
        Insert my token
      </button>
      <button className="btn sw-small" onClick={onCancel} data-cancel>
        Cancel
      </button>
    </div>
  );
}

/** Local apps that open by link (LM Studio, Jan…). */
export function Deeplinks({ result }: { result: SnippetsResult }) {
  if (result.deeplinks.length === 0) return null;
  return (
    <div className="sw-deeplinks">
      <span className="muted small">Open in</span>
      {result.deeplinks.map((d) => (
        // An app's own protocol (lmstudio://, jan://…): main checks it, the system hands it to the installed app.
        <ExternalLink key={d.app} href={d.url} className="btn sw-small" testId={`deeplink-${d.app}`}>
          {d.label}
        </ExternalLink>
      ))}
    </div>
  );
}
