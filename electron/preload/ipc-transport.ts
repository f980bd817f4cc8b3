import { AppError } from '@shared/errors';
import { IPC, type Reply, type StreamMessage, type Transport } from '@shared/transport';

/** The parts of Electron's ipcRenderer the transport uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, message: StreamMessage) => void): void;
}

function unwrap(reply: unknown): unknown {
  const r = reply as Reply;
  if (r?.ok) return r.value;
  throw AppError.from(r.error);
}

/** Electron's transport: calls and stream control through `invoke`, stream messages through one channel. */
export function ipcTransport(ipc: IpcRendererLike): Transport {
  const listeners = new Map<string, (msg: StreamMessage) => void>();
  let seq = 0;
  ipc.on(IPC.streamMessage, (_e, msg) => listeners.get(msg.id)?.(msg));

  return {
    call: async (name, input) => unwrap(await ipc.invoke(IPC.call, name, input)),
    stream(name, input, onEvents) {
      const id = `s${++seq}-${Date.now().toString(36)}`;
      let cancelled = false;
      const result = new Promise<unknown>((resolve, reject) => {
        listeners.set(id, (msg) => {
          if (msg.type === 'events') return onEvents(msg.events);
          listeners.delete(id);
          if (msg.type === 'end') resolve(msg.result);
          else reject(AppError.from(msg.error));
        });
        ipc.invoke(IPC.streamStart, id, name, input).then(
          (reply) => {
            try {
              unwrap(reply);
              if (cancelled) void ipc.invoke(IPC.streamCancel, id);
            } catch (e) {
              listeners.delete(id);
              reject(e);
            }
          },
          (e: unknown) => {
            listeners.delete(id);
            reject(new AppError('unavailable', `HubDesk main process did not answer: ${String(e)}`));
          },
        );
      });
      return {
        result,
        cancel: () => {
          cancelled = true;
          void ipc.invoke(IPC.streamCancel, id);
        },
      };
    },
  };
}
