import { Downloads } from '../../electron/main/services/local/download/downloads';
import type { Logger } from '../../electron/main/services/log';

/** One whole HubDesk download (tree, resolve → CDN, sha256 checked, renamed), timed; its queue disposed after. */
export async function downloadOnce(o: {
  dir: string;
  endpoint: string;
  fetch: typeof fetch;
  log: Logger;
  repo: string;
  file: string;
}): Promise<number> {
  const dl = new Downloads({
    dir: o.dir,
    endpoint: () => o.endpoint,
    fetch: o.fetch,
    log: o.log,
    freeBytes: async () => 1e12,
  });
  const t = performance.now();
  const done = new Promise<void>((ok, fail) =>
    dl.onChange(() => {
      const d = dl.list()[0];
      if (d?.state === 'done') ok();
      if (d?.state === 'failed') fail(new Error(d.error?.message));
    }),
  );
  try {
    await dl.start({ repo: o.repo, file: o.file });
    await done;
    return performance.now() - t;
  } finally {
    await dl.dispose();
  }
}
