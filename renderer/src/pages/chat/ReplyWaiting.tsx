import { plural } from '@shared/plural';
import { useChat } from '../../store/chat';

/**
 * "Waiting for the model — 2 requests ahead": the built-in engine is answering as many requests as it can at once,
 * and this reply waits its turn. Gone once its first text arrives.
 */
export function ReplyWaiting({ id }: { id: string }) {
  const ahead = useChat((s) => Object.values(s.running).find((r) => r.waiting?.id === id)?.waiting?.ahead);
  if (ahead === undefined) return null;
  return (
    <div className="msg-note msg-waiting" role="status" data-testid="msg-waiting">
      Waiting for the model — {plural(ahead, 'request')} ahead
    </div>
  );
}
