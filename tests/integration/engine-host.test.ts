import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { loopGguf } from '../fixtures/scripted-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';

// The engine host through the real layers: llama.cpp in its own process, crashed, killed, hung or talking garbage on
// purpose while a reply streams or a model loads. The app must live on, say what happened, keep what was written and
// answer the next message on a new host. The host takes test-only messages here (HUBDESK_ENGINE_TEST=1).

let t: LocalServerApp;
let app: LocalServerApp['app'];
/** A looping model per test: each crash counts against the models at work, and three in a minute stop retries. */
const LOOPS = ['abort', 'kill', 'garbage', 'hang', 'compare', 'parallel', 'server'] as const;
const loop = Object.fromEntries(LOOPS.map((k) => [k, ''])) as Record<(typeof LOOPS)[number], string>;
let tinyId: string;
let fragileId: string;

beforeAll(async () => {
  t = await startLocalServerApp(
    {
      ...Object.fromEntries(LOOPS.map((k) => [`loop-${k}.gguf`, loopGguf()])),
      'tiny.gguf': tinyGguf({ name: 'tiny' }),
      'fragile.gguf': tinyGguf({ seed: 11, name: 'fragile' }),
    },
    { testHost: true },
  );
  app = t.app;
  for (const k of LOOPS) loop[k] = t.ids[`loop-${k}.gguf`];
  tinyId = t.ids['tiny.gguf'];
  fragileId = t.ids['fragile.gguf'];
}, 60_000);

/** Waits until the host that ended has been seen to end (a request sent before that would go to the dying one). */
const hostGone = () => expect.poll(() => runtime().status().host).toBeUndefined();

afterAll(async () => {
  await t?.close();
});

const runtime = () => app.services.local.runtime;

/** Sends `content` in a new conversation on `model`; `during` runs once the reply's first text has arrived. */
async function reply(model: string, params: Record<string, unknown>, during?: () => void | Promise<void>) {
  const conv = await app.client.call('chat.create', { backend: 'local', model, params });
  const events: ChatEvent[] = [];
  let fired = false;
  const started = performance.now();
  const times: { first?: number; end?: number } = {};
  const h = app.client.stream('chat.send', { id: conv.id, content: 'hello' }, (evs) => {
    events.push(...evs);
    if (evs.some((e) => e.type === 'delta')) times.first ??= performance.now() - started;
    if (!fired && during && evs.some((e) => e.type === 'delta')) {
      fired = true;
      void during();
    }
  });
  let error: AppError | undefined;
  try {
    await h.result;
  } catch (e) {
    error = e as AppError;
  }
  times.end = performance.now() - started;
  const saved = await app.client.call('chat.get', { id: conv.id });
  const msg = saved.messages.filter((m: ChatMessage) => m.role === 'assistant').at(-1)!;
  const streamed = events.map((e) => (e.type === 'delta' ? (e.content ?? '') : '')).join('');
  return { conv, events, error, msg, streamed, times, handle: h };
}

const LONG = { max_tokens: 100_000, temperature: 0 };

describe('the engine host: a crash is a message, not an ending', () => {
  it('llama.cpp aborting mid-reply: the reply says so and keeps its text, the app lives, the next message is answered', async () => {
    const r = await reply(loop.abort, LONG, () => runtime().host.test('abort'));
    expect(r.error?.message).toMatch(
      /^The built-in engine stopped while answering \(llama\.cpp aborted[^)]*\)\. What it wrote is kept; send again to restart it\.$/,
    );
    expect(r.msg.status).toBe('error');
    expect(r.msg.content.length).toBeGreaterThan(0);
    expect(r.msg.content).toBe(r.streamed);
    expect(r.msg.content).toMatch(/^ ?la( di la)*( di)?$/);
    const status = await app.client.call('local.status', {});
    expect(status.loaded).toEqual([]);
    expect(status.lastStop?.message).toMatch(/^The built-in engine stopped \(llama\.cpp aborted/);
    const next = await reply(loop.abort, { max_tokens: 6, temperature: 0 });
    expect(next.error).toBeUndefined();
    expect(next.msg).toMatchObject({ status: 'complete' });
    expect(next.msg.content.trim()).toBe('la di la di la di');
  });

  it('the host killed mid-reply (SIGKILL): named as killed, likely out of memory, and a new host answers', async () => {
    const r = await reply(loop.kill, LONG, () => {
      process.kill(runtime().status().host!.pid, 'SIGKILL');
    });
    expect(r.error?.message).toMatch(
      /^The built-in engine stopped while answering \(it was killed, likely out of memory\)\. What it wrote is kept/,
    );
    expect(r.msg.content).toBe(r.streamed);
    expect(r.msg.content.length).toBeGreaterThan(0);
    const next = await reply(loop.kill, { max_tokens: 4, temperature: 0 });
    expect(next.msg.status).toBe('complete');
  });

  it('a crash during Load is said at Load, and the model stays listed', async () => {
    await app.client.call('local.unload', {});
    const loading = app.client.call('local.load', { id: tinyId }).catch((e: AppError) => e);
    // The host has just started: its load waits for llama.cpp to start, and the crash comes first.
    await expect.poll(() => runtime().status().host?.pid).toBeDefined();
    runtime().host.test('abort');
    const e = (await loading) as AppError;
    expect(e.code).toBe('unavailable');
    expect(e.message).toMatch(
      /^The built-in engine stopped while loading tiny \(llama\.cpp aborted[^)]*\)\. Try a shorter context or another quant of it\.$/,
    );
    const { models } = await app.client.call('local.models', {});
    expect(models.map((m) => m.id)).toContain(tinyId);
    expect((await app.client.call('local.load', { id: tinyId })).loaded.map((l) => l.id)).toEqual([tinyId]);
  });

  it('three crashes within a minute on one model and settings stop the restarts and say what to try', async () => {
    for (let i = 0; i < 3; i++) {
      const loading = app.client.call('local.load', { id: fragileId, contextSize: 256 }).catch((e: AppError) => e);
      await expect.poll(() => runtime().status().host?.pid).toBeDefined();
      runtime().host.test('exit');
      const e = (await loading) as AppError;
      await hostGone();
      expect(e.message).toMatch(i < 2 ? /stopped while loading fragile \(exit code 3\)/ : /crashed 3 times/);
    }
    const pid = runtime().status().host?.pid;
    const e = await app.client.call('local.load', { id: fragileId, contextSize: 256 }).catch((x: AppError) => x);
    expect((e as AppError).message).toBe(
      'The built-in engine crashed 3 times within a minute with fragile (256 tokens of context), so HubDesk stopped restarting it. Load it with a shorter context, or try another quant.',
    );
    // Refused without starting a host; other settings are another try.
    expect(runtime().status().host?.pid).toBe(pid);
    expect((await app.client.call('local.load', { id: fragileId, contextSize: 512 })).loaded).toContainEqual(
      expect.objectContaining({ id: fragileId, contextSize: 512 }),
    );
    await app.client.call('local.unload', {});
  });

  it('a host that talks garbage on its channel is restarted, and the reply says so', async () => {
    const r = await reply(loop.garbage, LONG, () => runtime().host.test('garbage'));
    expect(r.error?.message).toMatch(
      /^The built-in engine stopped while answering \(it sent a message HubDesk could not read, so it was restarted\)\. What it wrote is kept/,
    );
    expect(r.msg.content).toBe(r.streamed);
    expect((await reply(loop.garbage, { max_tokens: 4, temperature: 0 })).msg.status).toBe('complete');
  });

  it('a crash under Compare: each built-in pane ends with the words and keeps what it wrote', async () => {
    let crashed = false;
    const h = app.client.stream(
      'compare.run',
      {
        panes: [
          { backend: 'local', model: loop.compare },
          { backend: 'local', model: loop.compare, params: { seed: 1 } },
        ],
        params: LONG,
        prompt: 'hello',
      },
      (evs) => {
        if (!crashed && evs.some((e) => e.type === 'delta')) {
          crashed = true;
          runtime().host.test('abort');
        }
      },
    );
    const run = await h.result;
    // Both panes ran together on the model's sequences, and both were cut by the one crash.
    expect(run.plan.mode).toBe('parallel');
    for (const slot of run.slots) {
      expect(slot.answers[0]).toMatchObject({ status: 'error' });
      expect(slot.answers[0].error?.message).toMatch(
        /^The built-in engine stopped while answering \(llama\.cpp aborted/,
      );
    }
    expect(run.slots.some((s) => s.answers[0].content.length > 0)).toBe(true);
    await hostGone();
  });

  it('a hung host: Stop still ends the reply at once; the host is killed after 3 s and a new one answers', async () => {
    const conv = await app.client.call('chat.create', { backend: 'local', model: loop.hang, params: LONG });
    let first = false;
    const h = app.client.stream('chat.send', { id: conv.id, content: 'hello' }, (evs) => {
      if (!first && evs.some((e) => e.type === 'delta')) {
        first = true;
        runtime().host.test('hang');
      }
    });
    await expect.poll(() => first, { timeout: 10_000 }).toBe(true);
    const pid = runtime().status().host!.pid;
    const stoppedAt = performance.now();
    h.cancel();
    await h.result.catch(() => {});
    const last = async () => (await app.client.call('chat.get', { id: conv.id })).messages.at(-1);
    await expect.poll(last).toMatchObject({ role: 'assistant', status: 'stopped' });
    // Stop did not wait for the stuck host (it is killed 3 s after being asked).
    expect(runtime().status().host?.pid).toBe(pid);
    expect(performance.now() - stoppedAt).toBeLessThan(3_000);
    await expect.poll(() => runtime().status().host?.pid, { timeout: 8_000 }).not.toBe(pid);
    expect(runtime().status().lastStop?.message).toMatch(/did not stop within 3 s of being asked to/);
    expect((await reply(loop.hang, { max_tokens: 4, temperature: 0 })).msg.status).toBe('complete');
  });
});

describe('the engine host: several requests on one model at once', () => {
  it('four replies on one model overlap in time; a fifth waits and says so, then answers', async () => {
    await app.client.call('local.load', { id: loop.parallel, sequences: 4 });
    // What the engine says while they run: at most 4 answering, the fifth waiting.
    const seen = { busy: 0, waiting: 0, both: false };
    const watch = setInterval(() => {
      const m = runtime()
        .status()
        .loaded.find((l) => l.id === loop.parallel);
      if (!m) return;
      seen.busy = Math.max(seen.busy, m.busy);
      seen.waiting = Math.max(seen.waiting, m.waiting);
      seen.both ||= m.busy === 4 && m.waiting === 1;
    }, 5);
    // 300 tokens each: within the model's 512-token context (no context shift), long enough to overlap.
    const five = await Promise.all(
      Array.from({ length: 5 }, () => reply(loop.parallel, { max_tokens: 300, temperature: 0 })),
    );
    clearInterval(watch);
    for (const r of five) expect(r.msg.status).toBe('complete');
    // Whichever came fifth to the engine waited, and said so; the other four answered together.
    const waiters = five.filter((r) => r.events.some((e) => e.type === 'waiting'));
    expect(waiters).toHaveLength(1);
    const [waiter] = waiters;
    const together = five.filter((r) => r !== waiter);
    const firstEnd = Math.min(...together.map((r) => r.times.end!));
    for (const r of together) expect(r.times.first!).toBeLessThan(firstEnd);
    expect(seen).toEqual({ busy: 4, waiting: 1, both: true });
    expect(waiter.events.find((e) => e.type === 'waiting')).toEqual({ type: 'waiting', ahead: 1 });
    // It started once a sequence came free (after its notice), with the same greedy reply as the others.
    expect(waiter.events.findIndex((e) => e.type === 'waiting')).toBeLessThan(
      waiter.events.findIndex((e) => e.type === 'delta'),
    );
    expect(waiter.msg.content).toBe(together[0].msg.content);
  });

  it('the local server answers 503 with Retry-After once its queue is full, and its open requests 503 on a crash', async () => {
    const { port } = t;
    await app.client.call('local.server.set', { enabled: true, port, key: KEY });
    await app.client.call('local.load', { id: loop.server, sequences: 1 });
    const body = JSON.stringify({ model: loop.server, messages: [{ role: 'user', content: 'hi' }], max_tokens: 400 });
    const open = Array.from({ length: 9 }, () => rawRequest(port, '/v1/chat/completions', { method: 'POST', body }));
    await expect
      .poll(
        () =>
          runtime()
            .status()
            .loaded.find((l) => l.id === loop.server)?.waiting,
      )
      .toBe(8);
    const refused = await rawRequest(port, '/v1/chat/completions', { method: 'POST', body });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(JSON.parse(refused.text).error).toMatchObject({ type: 'unavailable_error', code: 'unavailable' });
    expect(JSON.parse(refused.text).error.message).toMatch(/is busy: 1 requests are being answered and 8 are waiting/);
    runtime().host.test('abort');
    const answers = await Promise.all(open);
    const statuses = answers.map((a) => a.status);
    // The one being answered fails with the crash; the waiting ones start a new host and are answered.
    expect(statuses.filter((s) => s === 503)).toHaveLength(1);
    const failed = answers.find((a) => a.status === 503)!;
    expect(JSON.parse(failed.text).error.message).toMatch(
      /^The built-in engine stopped while answering \(llama\.cpp aborted/,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
  });
});
