import { replyVia, type LocalApp } from './local-app';

/** What killing the engine host mid-reply costs: how soon it is said, and how soon the next reply comes. */
export interface Crash {
  /** Kill → `local.status` answered. */
  statusMs: number;
  /** Kill → the reply under way ended with its error. */
  failedMs: number;
  /** The next reply: request → first token (a new host, the model loaded again). */
  nextFirstMs: number;
  error: string;
}

/** A reply under way on `id`; at its first token the host is killed as the OOM killer would (SIGKILL). */
export async function killMidReply(
  app: LocalApp,
  { tokens, contextSize }: { tokens: number; contextSize: number },
  id: string,
): Promise<Crash> {
  const { router, services } = app;
  await router.call('local.unload', {});
  await router.call('local.load', { id, contextSize });
  let killedAt = 0;
  let status: Promise<number> | undefined;
  const failed = await replyVia(router, id, tokens, {
    onFirst: () => {
      const pid = services.local.runtime.status().host?.pid;
      if (pid === undefined) throw new Error('no engine host to kill');
      process.kill(pid, 'SIGKILL');
      killedAt = performance.now();
      status = router.call('local.status', {}).then(() => performance.now() - killedAt);
    },
  }).then(
    () => {
      throw new Error('the reply finished although its engine was killed');
    },
    (e: Error) => ({ ms: performance.now() - killedAt, error: e.message }),
  );
  const statusMs = await status!;
  const next = await replyVia(router, id, 32);
  return { statusMs, failedMs: failed.ms, nextFirstMs: next.firstMs, error: failed.error };
}
