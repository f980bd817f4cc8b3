import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat';
import { Journal, readJournal, replay } from '../../electron/main/services/chat/journal';
import { ChatStore, toMarkdown } from '../../electron/main/services/chat/store';
import { createLogger } from '../../electron/main/services/log';
import { tempDir } from '../helpers/app';

const msg = (id: string, content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  role: 'user',
  content,
  status: 'complete',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('chat journal', () => {
  const dirs: { remove(): void }[] = [];
  const dir = () => {
    const d = tempDir('hubdesk-journal-');
    dirs.push(d);
    return d.path;
  };
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('replays put, append and cut in order', () => {
    expect(
      replay([
        { t: 'put', msg: msg('m_a', 'q') },
        { t: 'put', msg: msg('m_b', '', { role: 'assistant', status: 'streaming' }) },
        { t: 'append', id: 'm_b', content: 'Hel', thinking: 'hm' },
        { t: 'append', id: 'm_b', content: 'lo' },
        { t: 'put', msg: msg('m_c', 'next') },
        { t: 'cut', from: 'm_c' },
        { t: 'put', msg: msg('m_a', 'q edited') },
      ]).map((m) => [m.id, m.content, m.thinking]),
    ).toEqual([
      ['m_a', 'q edited', undefined],
      ['m_b', 'Hello', 'hm'],
    ]);
  });

  it('drops a torn last line (logged as torn bytes), keeps every earlier line, and appends cleanly after it', () => {
    const file = join(dir(), 'journal.jsonl');
    const j = Journal.open(file);
    j.append([{ t: 'put', msg: msg('m_a', 'one') }]);
    j.append([{ t: 'put', msg: msg('m_b', 'two') }]);
    j.close();
    appendFileSync(file, '{"t":"put","msg":{"id":"m_c","cont');
    const reopened = Journal.open(file);
    expect(reopened.report).toEqual({ tornBytes: 34, badLines: 0 });
    expect(reopened.messages().map((m) => m.content)).toEqual(['one', 'two']);
    reopened.append([{ t: 'put', msg: msg('m_d', 'three') }]);
    reopened.close();
    expect(readJournal(file).report).toEqual({ tornBytes: 0, badLines: 0 });
    expect(
      Journal.open(file)
        .messages()
        .map((m) => m.content),
    ).toEqual(['one', 'two', 'three']);
  });

  it('a complete last record missing only its newline is kept', () => {
    const file = join(dir(), 'journal.jsonl');
    writeFileSync(file, JSON.stringify({ t: 'put', msg: msg('m_a', 'one') }));
    const j = Journal.open(file);
    expect(j.report.tornBytes).toBe(0);
    j.append([{ t: 'put', msg: msg('m_b', 'two') }]);
    j.close();
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(readJournal(file).records).toHaveLength(2);
  });

  it('a corrupt line in the middle is counted and skipped, never the lines around it', () => {
    const file = join(dir(), 'journal.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ t: 'put', msg: msg('m_a', 'one') }),
        'garbage',
        JSON.stringify({ t: 'put', msg: msg('m_b', 'two') }),
        '',
      ].join('\n'),
    );
    const { records, report } = readJournal(file);
    expect(report).toEqual({ tornBytes: 0, badLines: 1 });
    expect(records).toHaveLength(2);
  });
});

describe('chat store', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const store = () => {
    const d = tempDir('hubdesk-store-');
    dirs.push(d);
    return new ChatStore(join(d.path, 'chats'), createLogger());
  };

  it('export → import is lossless; the import is a new conversation when the id exists', () => {
    const s = store();
    const meta = s.create({ model: 'llama3.2', system: 'sys', params: { temperature: 0.5, stop: ['x'] } });
    const conv = s.get(meta.id);
    conv.put(msg('m_1', 'Hello **world**', { images: ['aGk='] }));
    conv.put(
      msg('m_2', 'Hi', { role: 'assistant', thinking: 'hmm', figures: { evalTokens: 3, tokensPerSecond: 12.5 } }),
    );
    conv.put(msg('m_3', 'partial', { role: 'assistant', status: 'stopped' }));
    conv.put(
      msg('m_4', 'Error: x', {
        role: 'tool',
        toolName: 'web_search',
        status: 'error',
        error: { code: 'invalid_input', message: 'Query is required' },
      }),
    );
    const exported = s.exportJson(meta.id);
    const text = JSON.stringify(exported);
    const imported = s.import(text);
    expect(imported.id).not.toBe(meta.id);
    const back = s.exportJson(imported.id);
    expect({ ...back, meta: { ...back.meta, id: meta.id } }).toEqual(JSON.parse(text));

    // Into a fresh store (another machine): same id, identical export.
    const other = store();
    const same = other.import(text);
    expect(same.id).toBe(meta.id);
    expect(other.exportJson(meta.id)).toEqual(JSON.parse(text));
    expect(toMarkdown(exported)).toContain('## Assistant (stopped)');
  });

  it('a malformed import is refused with the reason and changes nothing', () => {
    const s = store();
    s.create({ model: 'llama3.2' });
    const before = readdirSync(s.root).sort();
    expect(() => s.import('{not json')).toThrow(/not JSON/);
    expect(() => s.import(JSON.stringify({ format: 'other' }))).toThrow(/not a HubDesk conversation export/);
    const bad = s.exportJson(s.list()[0].id);
    const wrong = { ...bad, messages: [{ ...msg('m_1', 'x'), role: 'robot' }] };
    expect(() => s.import(JSON.stringify(wrong))).toThrow(/messages\.0\.role/);
    const dup = { ...bad, messages: [msg('m_1', 'x'), msg('m_1', 'y')] };
    expect(() => s.import(JSON.stringify(dup))).toThrow(/repeats message id/);
    expect(readdirSync(s.root).sort()).toEqual(before);
    expect(s.list()).toHaveLength(1);
  });

  it('delete moves aside and restore brings it back; list sorts pinned first and searches titles', () => {
    const s = store();
    const a = s.create({ title: 'Alpha talk', model: 'm1' });
    const b = s.create({ title: 'Beta talk', model: 'm2' });
    s.update(a.id, { pinned: true });
    expect(s.list().map((m) => m.title)).toEqual(['Alpha talk', 'Beta talk']);
    expect(s.list('beta').map((m) => m.id)).toEqual([b.id]);
    s.get(b.id).put(msg('m_1', 'kept'));
    s.delete(b.id);
    expect(s.list().map((m) => m.id)).toEqual([a.id]);
    s.restore(b.id);
    expect(s.get(b.id).messages.map((m) => m.content)).toEqual(['kept']);
  });

  it('titles a new conversation from its first message; a reply left streaming reopens as stopped', () => {
    const root = tempDir('hubdesk-store-');
    dirs.push(root);
    const s1 = new ChatStore(join(root.path, 'chats'), createLogger());
    const meta = s1.create({ model: 'm' });
    const c = s1.get(meta.id);
    c.put(msg('m_1', 'What is   the capital of France?'));
    c.put(msg('m_2', '', { role: 'assistant', status: 'streaming' }));
    c.append('m_2', 'Par', '');
    s1.close();
    const s2 = new ChatStore(join(root.path, 'chats'), createLogger());
    expect(s2.meta(meta.id).title).toBe('What is the capital of France?');
    expect(s2.get(meta.id).messages[1]).toMatchObject({ content: 'Par', status: 'stopped' });
  });
});
