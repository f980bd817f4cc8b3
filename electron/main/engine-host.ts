import type { FromHost, ToHost } from './services/local/host/protocol';
import { serveHost } from './services/local/runtime/serve';

// The engine host's entry: llama.cpp runs in this process, apart from the app, so an abort in it (a GGML_ASSERT on an
// odd GGUF, the OOM killer, a driver fault) ends this process only. Electron forks it as a utilityProcess (messages on
// `process.parentPort`); the web mode and the CLI as a Node child (messages on `process` itself).

interface ParentPort {
  postMessage(msg: unknown): void;
  on(event: 'message', fn: (e: { data: unknown }) => void): void;
}

const parentPort = (process as { parentPort?: ParentPort }).parentPort;

serveHost(
  parentPort
    ? {
        send: (msg: FromHost) => parentPort.postMessage(msg),
        onMessage: (fn) => parentPort.on('message', (e) => fn(e.data as ToHost)),
      }
    : {
        send: (msg: FromHost) => process.send?.(msg),
        onMessage: (fn) => process.on('message', (m) => fn(m as ToHost)),
      },
  { gpu: process.env.HUBDESK_ENGINE_GPU === 'off' ? false : 'auto', test: process.env.HUBDESK_ENGINE_TEST === '1' },
);

// A Node child whose parent went away (main crashed or was killed) has nothing left to serve.
if (!parentPort) process.on('disconnect', () => process.exit(0));
