import { describe, expect, it } from 'vitest';
import { extract } from '../../electron/main/services/documents/extract/extract';
import { AppError } from '../../shared/errors';
import { docxBomb, docxBytes } from '../fixtures/documents/docx';
import { pdfRepeatedPage } from '../fixtures/documents/pdf';

// Issue #38: hostile documents are refused in words by a limit, quickly and without the memory they ask for. These
// run the extractors in this thread; tests/integration/documents-hostile.test.ts runs them as the app does.

const utf8 = (s: string) => new TextEncoder().encode(s);

async function refusal(p: Promise<unknown>): Promise<AppError & { details: { file: string; reason: string } }> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe('invalid_input');
  return e as AppError & { details: { file: string; reason: string } };
}

describe('extract: limits', () => {
  it('F1: refuses a DOCX that unpacks to 300 MB from its central directory, without inflating it', async () => {
    const bomb = await docxBomb(300 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const since = Date.now();
    const e = await refusal(extract({ name: 'bomb.docx', bytes: bomb }));
    expect(Date.now() - since).toBeLessThan(1_000);
    expect(e.message).toBe('This file expands to more than 200 MB when unpacked: HubDesk does not index it.');
    expect(e.details).toEqual({ file: 'bomb.docx', reason: 'too_large' });
  });

  it('F1: refuses a large entry packed past the ratio, and reads a DOCX within both limits', async () => {
    const bomb = await docxBomb(4 * 1024 * 1024);
    const e = await refusal(extract({ name: 'dense.docx', bytes: bomb }, { ratioFromBytes: 1024 * 1024 }));
    expect(e.message).toMatch(/^This file expands to more than 100 times its size when unpacked \(4\.0 MB from/);
    const text = 'a'.repeat(2 * 1024 * 1024);
    const ok = await extract({ name: 'plain.docx', bytes: docxBytes([{ text }]) }, { ratioFromBytes: 1024 * 1024 });
    expect(ok.text).toBe(text);
  });

  it('F1: refuses a DOCX whose headers understate what it unpacks to, before mammoth reads it', async () => {
    const liar = await docxBomb(64 * 1024 * 1024, { declaredBytes: 1024 * 1024 });
    const e = await refusal(extract({ name: 'liar.docx', bytes: liar }));
    expect(e.message).toBe(
      'This file unpacks to more than its own headers say (a damaged file, or a zip bomb): HubDesk does not index it.',
    );
  });

  it('F5: refuses a PDF whose page tree lists one page 20,000 times, before reading any page', async () => {
    const pdf = pdfRepeatedPage(20_000);
    expect(pdf.byteLength).toBeLessThan(200 * 1024);
    const since = Date.now();
    const e = await refusal(extract({ name: 'pages.pdf', bytes: pdf }));
    expect(Date.now() - since).toBeLessThan(5_000);
    expect(e.message).toBe(
      'This PDF has 20,000 pages; HubDesk reads PDFs of up to 2,000 pages: split it into smaller files.',
    );
    const few = await extract({ name: 'pages.pdf', bytes: pdfRepeatedPage(3) });
    expect(few.pages).toBe(3);
  });

  it('F9: refuses a single-line CSV past the cell cap while parsing it', async () => {
    const line = Array.from({ length: 50_000 }, (_, i) => `f${i}`).join(',');
    const e = await refusal(extract({ name: 'wide.csv', bytes: utf8(line) }, { maxCells: 10_000 }));
    expect(e.message).toBe(
      'This table has more than 10,000 cells: HubDesk does not index it. Split it into smaller files.',
    );
    // Rows are padded to the widest one: one wide row among many narrow ones counts as rows × width.
    const ragged = `${'x,'.repeat(200)}x\n${'y\n'.repeat(100)}`;
    await refusal(extract({ name: 'ragged.csv', bytes: utf8(ragged) }, { maxCells: 10_000 }));
    expect((await extract({ name: 'ragged.csv', bytes: utf8(ragged) })).kind).toBe('csv');
  });

  it('F13: refuses JSON nested 100,000 levels deep as invalid input, in words (no stack overflow)', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const e = await refusal(extract({ name: 'deep.json', bytes: utf8(deep) }));
    expect(e.message).toBe('This JSON file nests more than 512 levels deep: HubDesk does not index it.');
    expect(e.details.reason).toBe('too_deep');
    // Brackets inside strings are text, not nesting.
    const d = await extract({ name: 'flat.json', bytes: utf8(JSON.stringify({ k: '['.repeat(10_000) })) });
    expect(d.sections[0].headings).toEqual(['k']);
  });

  it('refuses a document whose text passes the cap', async () => {
    const e = await refusal(extract({ name: 'long.txt', bytes: utf8('word '.repeat(1_000)) }, { maxTextChars: 1_000 }));
    expect(e.message).toBe(
      'This file holds more than 1,000 characters of text: HubDesk does not index it. Split it into smaller files.',
    );
  });
});
