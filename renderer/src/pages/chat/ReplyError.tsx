import { replyActionOf } from '@shared/reply-action';
import type { AppErrorShape } from '@shared/errors';
import { ExternalLink } from '../../components/ExternalLink';
import { usePulls } from '../../store/pulls';
import { useRoute } from '../../store/route';

/**
 * Why a reply failed, with the one thing to do about it as a button (pull, retry, billing). Shown once: under the
 * failed reply itself, or above the composer when no message carries the error (e.g. switching versions failed).
 */
export function ReplyError({ error, busy, onRetry }: { error: AppErrorShape; busy: boolean; onRetry?(): void }) {
  const go = useRoute((s) => s.go);
  const action = replyActionOf(error.details);
  return (
    <div className="reply-error" role="alert" data-testid="reply-error">
      <strong>{error.code === 'unauthorized' ? 'Not authorised' : 'The reply failed'}:</strong> {error.message}
      {action?.kind === 'pull' && (
        <button
          className="btn btn-xs reply-action"
          onClick={() => {
            usePulls.getState().pull(action.model);
            go('models');
          }}
        >
          Pull {action.model}
        </button>
      )}
      {action?.kind === 'retry' && onRetry && (
        <button className="btn btn-xs reply-action" disabled={busy} onClick={onRetry}>
          Retry
        </button>
      )}
      {action?.kind === 'billing' && (
        <ExternalLink href={action.url} className="btn btn-xs reply-action">
          Add credits
        </ExternalLink>
      )}
    </div>
  );
}

/** The error a message already shows (a failed reply keeps its own): the banner above the composer then stays away. */
export const shownInMessage = (error: AppErrorShape, messages: { status: string; error?: AppErrorShape }[]) =>
  messages.some((m) => m.status === 'error' && m.error?.code === error.code && m.error.message === error.message);
