import { replyActionOf } from '@shared/reply-action';
import type { AppErrorShape } from '@shared/errors';
import { ExternalLink } from '../../components/ExternalLink';
import { useChat } from '../../store/chat';
import { usePulls } from '../../store/pulls';
import { useRoute } from '../../store/route';

/** Why the last reply failed, with the one thing to do about it as a button (pull, retry, billing). */
export function ReplyError({ id, error, busy }: { id: string; error: AppErrorShape; busy: boolean }) {
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
      {action?.kind === 'retry' && (
        <button className="btn btn-xs reply-action" disabled={busy} onClick={() => useChat.getState().regenerate(id)}>
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
