import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HubFreshness } from '@shared/contract/hub';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';

/** An answer kept on disk with its ETag, to revalidate it and to fall back on when the Hub cannot be reached. */
export interface CacheEntry {
  url: string;
  etag?: string;
  fetchedAt: string;
  link?: string;
  body: unknown;
}

/** A Hub answer with where it came from. */
export interface HubAnswer {
  body: unknown;
  /** The `Link` header, for pagination. */
  link?: string;
  freshness: HubFreshness;
}

/** The Hub's answers on disk, one file per URL, kept apart with and without a token. */
export class HubAnswerCache {
  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  file(url: string, authed: boolean): string {
    const key = createHash('sha256')
      .update(`${authed ? 'auth' : 'anon'} ${url}`)
      .digest('hex');
    return join(this.dir, `${key}.json`);
  }

  read(file: string): CacheEntry | undefined {
    if (!existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
    } catch {
      return undefined;
    }
  }

  answer(entry: CacheEntry, source: HubFreshness['source'], reason?: string): HubAnswer {
    const freshness: HubFreshness = { source, fetchedAt: entry.fetchedAt };
    if (reason) freshness.reason = reason;
    return { body: entry.body, link: entry.link, freshness };
  }

  write(file: string, entry: CacheEntry): void {
    try {
      writeFileAtomic(file, JSON.stringify(entry));
    } catch (e) {
      this.log.warn('hub cache not written', { reason: String(e) });
    }
  }
}
