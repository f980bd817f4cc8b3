import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Name } from '@shared/contract';
import { AppError, toAppError } from '@shared/errors';
import type { Transport } from '@shared/transport';
import { webTransport } from '../../renderer/src/transport/web';
import { closedPort } from '../helpers/ports';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * The seeded contract fuzzer: every call and stream, through the real web server and router, with wrong types,
 * `__proto__`/`constructor` keys, 5,000-deep nesting, huge strings and random JSON, top-level and in each field.
 * Every answer must be a result or a typed AppError other than `internal`; nothing may crash or hang.
 * Reproduce a run with `FUZZ_SEED=<seed> npx vitest run tests/integration/contract-fuzz.test.ts`.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PER_FIELD = Number(process.env.FUZZ_PER_FIELD ?? 4);
/** Far above any answer of a healthy call here (every server it could reach is a closed local port). */
const HANG_MS = 20_000;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function nest(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

const hostile: [string, () => unknown][] = [
  ['null', () => null],
  ['true', () => true],
  ['negative', () => -1],
  ['huge number', () => 1e308],
  ['empty string', () => ''],
  ['huge string', () => 'x'.repeat(1_000_000)],
  ['lone surrogate and NUL', () => '\ud800\u0000\u202e'],
  ['array', () => [1, 'a', null]],
  ['empty object', () => ({})],
  ['malformed URL', () => 'http://[::1'],
  ['metadata URL', () => 'http://169.254.169.254/latest/meta-data'],
  ['__proto__ key', () => JSON.parse('{"__proto__": {"polluted": true}, "toString": 1}')],
  ['constructor key', () => ({ constructor: { prototype: { polluted: true } }, hasOwnProperty: 'x' })],
  ['5,000-deep array', () => nest(5000, 'array')],
  ['5,000-deep object', () => nest(5000, 'object')],
];

const urlish = [
  'http://[::1',
  'http://%zz',
  'http://169.254.169.254/latest',
  'http://[::ffff:169.254.169.254]',
  'http://0.0.0.0:11434',
  'http://user:pw@127.0.0.1:1',
  'javascript:alert(1)',
  'http://127.0.0.1:1/x?y#z',
  'http://[::ffff:127.0.0.1]:1',
];

function randomJson(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (depth > 3 || r < 0.3) {
    const p = Math.floor(rand() * 6);
    if (p === 0) return null;
    if (p === 1) return rand() < 0.5;
    if (p === 2) return Math.floor((rand() - 0.5) * 2 ** 40);
    if (p === 3)
      return String.fromCodePoint(
        ...Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.floor(rand() * 0x2ffff)),
      );
    // URL-shaped text: broken, refused or local only (port 1 is closed), never a host on the internet.
    if (p === 4) return urlish[Math.floor(rand() * urlish.length)];
    return hostile[Math.floor(rand() * hostile.length)][1]();
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => randomJson(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < 1 + Math.floor(rand() * 4); i++)
    o[['a', 'id', 'model', '__proto__', 'name'][Math.floor(rand() * 5)]] = randomJson(rand, depth + 1);
  return o;
}

/** The field names of a call's input, when it is an object schema (zod 4 exposes `shape`). */
function fieldsOf(name: Name): string[] {
  const shape = (contract[name].input as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

interface Outcome {
  name: string;
  input: string;
  result: 'ok' | 'error' | 'internal' | 'hang';
  code?: string;
  message?: string;
}

describe(`seeded contract fuzzer (FUZZ_SEED=${SEED})`, () => {
  let app: TestApp;
  let transport: Transport;
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    // Every server the app could call is a closed local port: the fuzzer never reaches the network.
    const down = `http://127.0.0.1:${await closedPort()}`;
    app = await startTestApp({
      env: {
        OLLAMA_HOST: down,
        HF_ENDPOINT: down,
        HUBDESK_ROUTER_URL: down,
        HUBDESK_FAL_REST_BASE: down,
        HUBDESK_OLLAMA_WEB_BASE: down,
      },
      ollama: { timeoutMs: 2000 },
      hub: { timeoutMs: 2000, sleep: async () => {} },
      chat: { retryBaseMs: 1, providerTimeoutMs: 2000 },
    });
    transport = webTransport(`http://127.0.0.1:${app.server.port}`, app.server.secret);
    console.log(`contract fuzzer: FUZZ_SEED=${SEED}`);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function run(name: Name, label: string, input: unknown): Promise<void> {
    const kind = contract[name].kind;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<'hang'>((ok) => (timer = setTimeout(() => ok('hang'), HANG_MS)));
    const work = (async (): Promise<Omit<Outcome, 'name' | 'input'>> => {
      try {
        if (kind === 'call') await transport.call(name, input);
        else if (contract[name].kind === 'stream' && contract[name].endless) {
          // A subscription: valid input gets its first event (the current state) at once, then ends when cancelled.
          let first!: () => void;
          const started = new Promise<void>((ok) => (first = ok));
          const handle = transport.stream(name, input, () => first());
          await Promise.race([started, handle.result]);
          handle.cancel();
          await handle.result.catch((e: unknown) => {
            if (!(e instanceof AppError && e.code === 'aborted')) throw e;
          });
        } else await transport.stream(name, input, () => {}).result;
        return { result: 'ok' };
      } catch (e) {
        const err = e instanceof AppError ? e : toAppError(e);
        return {
          result: err.code === 'internal' ? 'internal' : 'error',
          code: err.code,
          message: err.message.slice(0, 160),
        };
      }
    })();
    const r = await Promise.race([work, hang]);
    clearTimeout(timer);
    outcomes.push({ name, input: label, ...(r === 'hang' ? { result: 'hang' as const } : r) });
  }

  it('every call and stream × hostile inputs: 0 internal, 0 crashes, 0 hangs', { timeout: 600_000 }, async () => {
    const rand = mulberry32(SEED);
    const names = Object.keys(contract) as Name[];
    for (const name of names) {
      for (const [label, make] of hostile) await run(name, `top-level ${label}`, make());
      await run(name, 'top-level random', randomJson(rand));
      for (const field of fieldsOf(name)) {
        for (const [label, make] of hostile) await run(name, `${field}: ${label}`, { [field]: make() });
        for (let i = 0; i < PER_FIELD; i++) await run(name, `${field}: random`, { [field]: randomJson(rand) });
      }
    }
    const bad = outcomes.filter((o) => o.result === 'internal' || o.result === 'hang');
    console.log(
      `contract fuzzer: ${outcomes.length} inputs over ${names.length} calls; ` +
        `${outcomes.filter((o) => o.result === 'ok').length} accepted, ${outcomes.filter((o) => o.result === 'error').length} refused with a typed error, ` +
        `${bad.length} internal or hung (FUZZ_SEED=${SEED})`,
    );
    expect(bad, `FUZZ_SEED=${SEED}`).toEqual([]);
    // The server still answers, and no prototype was polluted along the way.
    await expect(transport.call('settings.get', {})).resolves.toBeTruthy();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
