import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LlamaChat } from 'node-llama-cpp';
import type { StreamPayload } from '@shared/transport';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices, type Services } from '../../electron/main/services';
import { nodeHost } from '../../electron/main/services/local/host/spawn-node';
import { tinyGguf } from '../../tests/fixtures/tiny-gguf';
import { buildEngineHost } from '../../tests/helpers/engine-host-build';

export const PROMPT = 'hello';

/** The app's services and router with the built-in engine in its host process, on tiny GGUFs in a folder it knows. */
export interface LocalApp {
  services: Services;
  router: Router;
  /** The models' ids, one per copy of the tiny GGUF (each copy its own file, seed and crash count). */
  models: string[];
  /** The first copy's file, for node-llama-cpp called directly. */
  file: string;
  close(): Promise<void>;
}

/**
 * Builds the engine host's entry into a temporary folder (as `electron-vite build` builds it into out/main) and starts
 * the services the web mode starts, CPU only, with `threads` (unset: the app's own rule, or `local.threads`).
 */
export async function startLocalApp(opts: { threads?: number; copies?: number } = {}): Promise<LocalApp> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-local-'));
  const folder = join(dir, 'models');
  mkdirSync(folder, { recursive: true });
  const files = Array.from({ length: opts.copies ?? 1 }, (_, i) => {
    const file = join(folder, `tiny-${i}.gguf`);
    writeFileSync(file, tinyGguf({ seed: 42 + i }));
    return file;
  });
  // Inside the checkout, so the host finds node-llama-cpp in its node_modules as out/main's would; never out/ itself.
  const cache = join(process.cwd(), 'node_modules/.cache/hubdesk-bench');
  mkdirSync(cache, { recursive: true });
  const hostDir = mkdtempSync(join(cache, 'engine-host-'));
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(hostDir, { recursive: true, force: true });
  };
  let services: Services | undefined;
  try {
    const entry = await buildEngineHost(hostDir);
    services = createServices({
      mode: 'web',
      version: 'bench',
      env: {},
      dataDir: join(dir, 'data'),
      local: {
        runtime: { gpu: false, ...(opts.threads !== undefined ? { threads: opts.threads } : {}) },
        home: dir,
        spawnEngine: nodeHost(entry),
      },
    });
    const router = new Router(createHandlers(services), services.log);
    const list = (await router.call('local.folders.add', { path: folder })) as {
      models: { id: string; path: string }[];
    };
    const running = services;
    return {
      services,
      router,
      models: files.map((f) => list.models.find((m) => m.path === f)!.id),
      file: files[0],
      close: async () => {
        await running.dispose();
        remove();
      },
    };
  } catch (e) {
    await services?.dispose();
    remove();
    throw e;
  }
}

/** One reply as its consumer saw it. */
export interface Reply {
  /** When it was sent (performance.now()). */
  startedAt: number;
  /** Request → first text at the consumer. */
  firstMs: number;
  /** Request → last text at the consumer. */
  lastMs: number;
  tokens: number;
  /**
   * Tokens over request → last text. Not first → last: generation keeps the event loop busy, so a first delta that
   * leaves late would shorten that interval and flatter the side measured.
   */
  tokensPerSecond: number;
}

const done = (t: number, first: number, last: number, tokens: number): Reply => ({
  startedAt: t,
  firstMs: first - t,
  lastMs: last - t,
  tokens,
  tokensPerSecond: tokens / ((last - t) / 1000),
});

/** A new conversation on `model` and one `chat.send` through the router, its events consumed as the transport would. */
export async function replyVia(
  router: Router,
  model: string,
  tokens: number,
  hooks: { onFirst?: () => void } = {},
): Promise<Reply> {
  const { id } = (await router.call('chat.create', {
    backend: 'local',
    model,
    params: { max_tokens: tokens, temperature: 0 },
  })) as { id: string };
  const t = performance.now();
  let first = 0;
  let last = 0;
  let count = 0;
  let failed: unknown;
  const running = router.stream('chat.send', { id, content: PROMPT }, (msg: StreamPayload) => {
    if (msg.type === 'error') failed = msg.error;
    if (msg.type !== 'events') return;
    for (const e of msg.events as {
      type: string;
      content?: string;
      message?: { role: string; status: string; error?: unknown; figures?: { evalTokens?: number } };
    }[]) {
      if (e.type === 'delta' && e.content) {
        last = performance.now();
        if (!first) {
          first = last;
          hooks.onFirst?.();
        }
      }
      if (e.type !== 'message' || e.message?.role !== 'assistant') continue;
      if (e.message.status === 'complete') count = e.message.figures?.evalTokens ?? 0;
      if (e.message.status === 'error') failed = e.message.error;
    }
  });
  await running.done;
  if (failed || !count)
    throw new Error(`the reply did not complete: ${(failed as { message?: string })?.message ?? String(failed)}`);
  return done(t, first, last, count);
}

/** The baseline: node-llama-cpp called directly, one LlamaChat kept as the host keeps one per sequence. */
export async function replyDirect(chat: LlamaChat, tokens: number): Promise<Reply> {
  const before = chat.sequence.tokenMeter.getState().usedOutputTokens;
  const t = performance.now();
  let first = 0;
  let last = 0;
  await chat.generateResponse(
    [
      { type: 'user', text: PROMPT },
      { type: 'model', response: [] },
    ],
    {
      maxTokens: tokens,
      temperature: 0,
      onResponseChunk: (c) => {
        if (!c.text) return;
        last = performance.now();
        first ||= last;
      },
    },
  );
  return done(t, first, last, chat.sequence.tokenMeter.getState().usedOutputTokens - before);
}
