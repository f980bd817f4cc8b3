import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { Journal, readJournal, replay } from '../../electron/main/services/chat/storage/journal';
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
