import { AppError, toAppError } from '@shared/errors';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '@shared/limits';
import { IPC, type Reply, type StreamMessage } from '@shared/transport';
import type { Router, RunningStream } from '../router';

/** The parts of Electron's ipcMain / WebContents this adapter uses: typed so a test harness can stand in. */
export interface SenderLike {
  id: number;
  send(channel: string, message: StreamMessage): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', fn: () => void): void;
}
/** The frame that sent a message (Electron's WebFrameMain): null once it navigated away or was destroyed. */
interface FrameLike {
  url: string;
  /** null for a top-level (main) frame. */
  parent: unknown;
}
export interface IpcEventLike {
  sender: SenderLike;
  senderFrame?: FrameLike | null;
}

/**
 * Only our window's main frame, showing the app's own origin, may call main: not an iframe, not a page the window
 * was navigated to, not another window.
 */
export function isTrustedSender(e: IpcEventLike, windowId: number | undefined, appOrigin: string): boolean {
  if (windowId === undefined || e.sender.id !== windowId) return false;
  const frame = e.senderFrame;
  if (!frame || frame.parent !== null) return false;
  try {
    // Compared as scheme://host: Node's URL gives a custom scheme the origin "null", Chromium does not.
    const u = new URL(frame.url);
    return `${u.protocol}//${u.host}` === appOrigin;
  } catch {
    return false;
  }
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
}

const forbidden = (): Reply => ({
  ok: false,
  error: new AppError('forbidden', 'This window may not call HubDesk.').toJSON(),
});

const tooDeep = (input: unknown): AppError | undefined =>
  nestsDeeperThan(input, MAX_INPUT_DEPTH)
    ? new AppError('invalid_input', `Input nests deeper than ${MAX_INPUT_DEPTH} levels.`)
    : undefined;

/**
 * Carries the router over Electron IPC: `invoke` for calls and stream control, `send` for stream
 * messages. Only senders `isTrusted` accepts (our own window) are served.
 */
export function registerIpc(ipc: IpcMainLike, router: Router, isTrusted: (e: IpcEventLike) => boolean): void {
  const streams = new Map<string, RunningStream>();
  const watched = new Set<number>();
  const key = (sender: SenderLike, id: unknown) => `${sender.id}:${String(id)}`;

  ipc.handle(IPC.call, async (e, name, input): Promise<Reply> => {
    if (!isTrusted(e)) return forbidden();
    try {
      const deep = tooDeep(input);
      if (deep) throw deep;
      return { ok: true, value: await router.call(String(name), input) };
    } catch (err) {
      return { ok: false, error: toAppError(err).toJSON() };
    }
  });

  ipc.handle(IPC.streamStart, (e, id, name, input): Reply => {
    if (!isTrusted(e)) return forbidden();
    if (typeof id !== 'string' || id.length > 64) {
      return { ok: false, error: new AppError('invalid_input', 'Bad stream id.').toJSON() };
    }
    const deep = tooDeep(input);
    if (deep) return { ok: false, error: deep.toJSON() };
    const sender = e.sender;
    if (!watched.has(sender.id)) {
      watched.add(sender.id);
      // A closed or reloaded window cancels its streams: no work continues for nobody.
      sender.once('destroyed', () => {
        watched.delete(sender.id);
        for (const [k, s] of streams) if (k.startsWith(`${sender.id}:`)) s.cancel();
      });
    }
    const k = key(sender, id);
    const running = router.stream(String(name), input, (msg) => {
      if (!sender.isDestroyed()) sender.send(IPC.streamMessage, { id, ...msg } as StreamMessage);
    });
    streams.set(k, running);
    void running.done.finally(() => streams.delete(k));
    return { ok: true, value: null };
  });

  ipc.handle(IPC.streamCancel, (e, id): Reply => {
    if (!isTrusted(e)) return forbidden();
    streams.get(key(e.sender, id))?.cancel();
    return { ok: true, value: null };
  });
}
