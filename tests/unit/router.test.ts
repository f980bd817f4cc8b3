import { describe, expect, it } from 'vitest';
import { contract, type Name } from '@shared/contract';
import { AppError } from '@shared/errors';
import type { StreamPayload } from '@shared/transport';
import { createHandlers } from '../../electron/main/handlers';
import { BATCH_MS, Router, type Handlers } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import { createLogger } from '../../electron/main/services/log';
import { tempDir } from '../helpers/app';

function realRouter() {
  const dir = tempDir();
  const services = createServices({ dataDir: dir.path, mode: 'web', version: 't', env: {} });
  return { router: new Router(createHandlers(services), services.log), dir };
}

const names = Object.keys(contract) as Name[];

describe('router input validation', () => {
  // Every call and stream in the contract, present and future: a malformed input never reaches a service.
  it.each(names)('%s rejects malformed input with invalid_input', async (name) => {
    const { router, dir } = realRouter();
    try {
      for (const bad of [42, 'text', [1, 2], { __unexpected__: { deeply: true } }]) {
        if (contract[name].kind === 'call') {
          const err = (await router.call(name, bad).catch((e: unknown) => e)) as AppError;
          expect(err, `${name} accepted ${JSON.stringify(bad)}`).toBeInstanceOf(AppError);
          expect(err.code).toBe('invalid_input');
        } else {
          const msgs: StreamPayload[] = [];
          await router.stream(name, bad, (m) => msgs.push(m)).done;
          expect(msgs).toHaveLength(1);
          expect(msgs[0]).toMatchObject({ type: 'error', error: { code: 'invalid_input' } });
        }
      }
    } finally {
      dir.remove();
    }
  });

  it('names the path of the offending field', async () => {
    const { router, dir } = realRouter();
    const err = (await router.call('settings.update', { theme: 'purple' }).catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/^Theme: /);
    expect(err.details).toEqual({ issues: [expect.objectContaining({ path: ['theme'] })] });
    dir.remove();
  });

  it("names fields in words, never the call or the field's code name", async () => {
    const { router, dir } = realRouter();
    const err = (await router.call('settings.update', { ollamaHost: 'ftp://x' }).catch((e: unknown) => e)) as AppError;
    expect(err.message).toBe('Ollama address: must be an http(s) URL');
    expect(err.details).toEqual({ issues: [{ path: ['ollamaHost'], message: 'must be an http(s) URL' }] });
    dir.remove();
  });

  it('refuses unknown call and stream names', async () => {
    const { router, dir } = realRouter();
    await expect(router.call('fs.writeAnywhere', {})).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(router.call('ollama.pull', {})).rejects.toMatchObject({ code: 'invalid_input' });
    const msgs: StreamPayload[] = [];
    await router.stream('settings.get', {}, (m) => msgs.push(m)).done;
    expect(msgs[0]).toMatchObject({ type: 'error', error: { code: 'invalid_input' } });
    dir.remove();
  });
});

/** A router whose one stream is driven by the test. */
function streamRouter(body: (ctx: { signal: AbortSignal; emit(e: unknown): void }) => Promise<unknown>) {
  const handlers = { 'ollama.pull': (_input: unknown, ctx: never) => body(ctx) } as unknown as Handlers;
  return new Router(handlers, createLogger());
}

describe('router streams', () => {
  it('delivers events in order and ends with the result', async () => {
    const router = streamRouter(async ({ emit }) => {
      for (let i = 0; i < 5; i++) emit({ status: `s${i}` });
      return { status: 'success' };
    });
    const msgs: StreamPayload[] = [];
    await router.stream('ollama.pull', { model: 'llama3.2' }, (m) => msgs.push(m)).done;
    const events = msgs.flatMap((m) => (m.type === 'events' ? m.events : []));
    expect(events).toEqual([0, 1, 2, 3, 4].map((i) => ({ status: `s${i}` })));
    expect(msgs.at(-1)).toEqual({ type: 'end', result: { status: 'success' } });
  });

  it('coalesces a fast producer into at most one batch per frame', async () => {
    let elapsed = 0;
    const router = streamRouter(async ({ emit }) => {
      const start = performance.now();
      let n = 0;
      while (performance.now() - start < 120) {
        emit({ status: String(n++) });
        if (n % 500 === 0) await new Promise((r) => setImmediate(r));
      }
      elapsed = performance.now() - start;
      return { status: 'success' };
    });
    const msgs: StreamPayload[] = [];
    await router.stream('ollama.pull', { model: 'm' }, (m) => msgs.push(m)).done;
    const batches = msgs.filter((m) => m.type === 'events');
    const total = batches.reduce((a, m) => a + (m.type === 'events' ? m.events.length : 0), 0);
    expect(total).toBeGreaterThan(batches.length * 10);
    // Leading edge + one per elapsed frame + the final flush.
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(elapsed / BATCH_MS) + 2);
  });

  it('cancel aborts the handler signal and ends with aborted, even if the handler ignores it', async () => {
    let sawAbort = false;
    const router = streamRouter(
      ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve({ status: 'success' });
          });
        }),
    );
    const msgs: StreamPayload[] = [];
    const running = router.stream('ollama.pull', { model: 'm' }, (m) => msgs.push(m));
    running.cancel();
    await running.done;
    expect(sawAbort).toBe(true);
    expect(msgs.at(-1)).toMatchObject({ type: 'error', error: { code: 'aborted' } });
  });

  it('a handler that throws a plain Error ends the stream with internal, never a crash', async () => {
    const router = streamRouter(async ({ emit }) => {
      emit({ status: 'one' });
      throw new Error('boom');
    });
    const msgs: StreamPayload[] = [];
    await router.stream('ollama.pull', { model: 'm' }, (m) => msgs.push(m)).done;
    expect(msgs.at(-1)).toEqual({ type: 'error', error: { code: 'internal', message: 'boom' } });
  });
});
