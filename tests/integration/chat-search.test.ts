import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExcerptPart } from '@shared/contract/chat-search';
import { toFtsQuery } from '../../electron/main/services/chat/storage/search';
import { syntheticExport } from '../fixtures/conversation';
import { startTestApp, type TestApp } from '../helpers/app';

const hits = (parts: ExcerptPart[]) => parts.filter((p) => p.hit).map((p) => p.text.toLowerCase());
const text = (parts: ExcerptPart[]) => parts.map((p) => p.text).join('');

describe('chat search: titles and message text (FTS5), through the real layers', () => {
  let app: TestApp;
  const ids: Record<string, string> = {};
  const say = async (title: string, lines: string[]) => {
    const exp = syntheticExport(lines.length, title);
    exp.meta.id = `c_search${Object.keys(ids).length}`;
    exp.messages = exp.messages.map((m, i) => ({
      ...m,
      id: `${exp.meta.id.replace('c_', 'm_')}x${i}`,
      content: lines[i],
    }));
    ids[title] = (await app.client.call('chat.import', { text: JSON.stringify(exp) })).id;
  };

  beforeAll(async () => {
    app = await startTestApp();
    await say('Quantization notes', ['What is GGUF?', 'GGUF is a file format used by llama.cpp for quantized models.']);
    await say('Cooking', ['How long to boil an egg?', 'About nine minutes for a hard-boiled egg.']);
    await say('Travel', ['Best time to visit Kyoto?', 'Spring, for the cherry blossoms; autumn for the leaves.']);
  });
  afterAll(() => app?.close());
  const search = async (query: string) => (await app.client.call('chat.search', { query })).results;

  it('finds words inside messages, with the matched words highlighted, and says which message', async () => {
    const res = await search('boil');
    expect(res.map((r) => r.meta.title)).toEqual(['Cooking']);
    // Words match as prefixes ("boil" finds "boiled"); the most recent message first.
    expect(res[0].hits.map((h) => hits(h.excerpt))).toEqual([['boiled'], ['boil']]);
    expect(text(res[0].hits[1].excerpt)).toBe('How long to boil an egg?');
    const { messages } = await app.client.call('chat.get', { id: ids.Cooking });
    expect(res[0].hits.map((h) => h.messageId)).toEqual([messages[1].id, messages[0].id]);
  });

  it('prefix and phrase queries; titles match too', async () => {
    expect((await search('quantiz')).map((r) => r.meta.title)).toEqual(['Quantization notes']);
    const title = (await search('quantiz'))[0];
    expect(hits(title.title!)).toEqual(['quantization']);
    expect(hits(title.hits[0].excerpt)).toEqual(['quantized']);
    expect((await search('"cherry blossoms"')).map((r) => r.meta.title)).toEqual(['Travel']);
    expect(await search('"blossoms cherry"')).toEqual([]);
    // Every word is required.
    expect((await search('egg nine')).map((r) => r.meta.title)).toEqual(['Cooking']);
    expect(await search('egg kyoto')).toEqual([]);
  });

  it('text typed as FTS5 syntax is searched as words, never as an error', async () => {
    for (const q of ['"', 'AND', 'a*b', 'NEAR(', '^x', 'title:egg', '(((', '-', '""', '   '])
      await expect(search(q)).resolves.toBeInstanceOf(Array);
    expect(toFtsQuery('egg* OR "hard boiled" x:yo')).toBe('"egg" "OR" "hard boiled" "x" "yo"*');
    // A finished word (a space after it) matches whole.
    expect(toFtsQuery('hard boil ')).toBe('"hard" "boil"');
    expect(toFtsQuery('*** ---')).toBeUndefined();
  });

  it('a message found again after an edit; a deleted conversation is not found', async () => {
    const { messages } = await app.client.call('chat.get', { id: ids.Travel });
    const saved = await app.client.call('chat.edit', {
      id: ids.Travel,
      messageId: messages[0].id,
      content: 'Best time to visit Osaka?',
    });
    const osaka = await search('osaka');
    expect(osaka[0].hits[0].messageId).toBe(saved.id);
    await app.client.call('chat.delete', { id: ids.Travel });
    expect(await search('osaka')).toEqual([]);
    await app.client.call('chat.restore', { id: ids.Travel });
    expect(await search('osaka')).toHaveLength(1);
  });
});
