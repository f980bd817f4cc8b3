import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extract } from '../../electron/main/services/documents/extract/extract';
import type { ExtractedDoc } from '../../electron/main/services/documents/types';
import { AppError } from '../../shared/errors';
import { docxBytes } from '../fixtures/documents/docx';
import { pdfBytes } from '../fixtures/documents/pdf';

const utf8 = (s: string) => new TextEncoder().encode(s);
const sectionTexts = (d: ExtractedDoc) =>
  d.sections.map((s) => ({ headings: s.headings, page: s.page, text: d.text.slice(s.start, s.end) }));

/** The AppError `extract` rejects with, checked to be one. */
async function failure(p: Promise<unknown>): Promise<AppError & { details: { file: string; reason: string } }> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError & { details: { file: string; reason: string } };
}

describe('extract: text, Markdown and code', () => {
  it('sections Markdown by its headings (not inside code fences), with their paths', async () => {
    const md =
      '\uFEFFIntro line.\n\n# Guide\nAbout it.\n\n## Install\nRun it.\n\n```sh\n# not a heading\n```\n\n# Other\nLast.\n';
    const d = await extract({ name: 'notes.md', bytes: utf8(md) });
    expect(d.kind).toBe('markdown');
    expect(d.text.startsWith('Intro')).toBe(true); // the BOM dropped
    expect(sectionTexts(d)).toEqual([
      { headings: [], page: undefined, text: 'Intro line.\n\n' },
      { headings: ['Guide'], page: undefined, text: '# Guide\nAbout it.\n\n' },
      {
        headings: ['Guide', 'Install'],
        page: undefined,
        text: '## Install\nRun it.\n\n```sh\n# not a heading\n```\n\n',
      },
      { headings: ['Other'], page: undefined, text: '# Other\nLast.\n' },
    ]);
  });

  it('reads code by extension as one section, and a file without one by sniffing its content', async () => {
    expect((await extract({ name: 'main.rs', bytes: utf8('fn main() {}\n') })).kind).toBe('code');
    expect((await extract({ name: 'README', bytes: utf8('plain words\n') })).kind).toBe('text');
    expect((await extract({ name: 'blob', bytes: pdfBytes(['Sniffed as a PDF by its signature.']) })).kind).toBe('pdf');
  });

  it('decodes UTF-16 with a BOM, and refuses binary content under a text extension in words', async () => {
    const wide = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo wörld', 'utf16le')]);
    expect((await extract({ name: 'w.txt', bytes: new Uint8Array(wide) })).text).toBe('héllo wörld');
    const e = await failure(
      extract({ name: 'photo.txt', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) }),
    );
    expect(e.message).toMatch(/not a text file/);
    expect(e.details).toEqual({ file: 'photo.txt', reason: 'not_text' });
  });

  it('says which types it reads for an unsupported one, and refuses a file over the limit by its size', async () => {
    const e = await failure(extract({ name: 'song.mp3', bytes: new Uint8Array([0x49, 0x44, 0x33, 0, 0xff, 0]) }));
    expect(e.message).toBe(
      'HubDesk cannot read .mp3 files: it reads text, Markdown, code, PDF, Word (.docx), HTML, CSV and JSON.',
    );
    const dir = mkdtempSync(join(tmpdir(), 'hubdesk-docs-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(3 * 1024 * 1024));
    const tooBig = await failure(extract(big, { maxBytes: 2 * 1024 * 1024 }));
    expect(tooBig.message).toBe(
      'This file is too large to add (3.0 MB; the limit is 2.0 MB): split it into smaller files.',
    );
    expect(tooBig.details.reason).toBe('too_large');
    expect((await extract(big)).text.length).toBe(3 * 1024 * 1024);
    expect((await failure(extract(join(dir, 'gone.md')))).message).toMatch(/no longer there/);
  });
});

describe('extract: PDF', () => {
  it('keeps each page as a section with its number, lines and paragraph gaps', async () => {
    const d = await extract({
      name: 'report.pdf',
      bytes: pdfBytes([
        'Quarterly (draft) report.\nSecond line.\n\nA new paragraph.',
        'Page two holds the totals.',
        'Page three: appendix.',
      ]),
    });
    expect(d.kind).toBe('pdf');
    expect(d.pages).toBe(3);
    expect(sectionTexts(d)).toEqual([
      { headings: [], page: 1, text: 'Quarterly (draft) report.\nSecond line.\n\nA new paragraph.' },
      { headings: [], page: 2, text: 'Page two holds the totals.' },
      { headings: [], page: 3, text: 'Page three: appendix.' },
    ]);
  });

  it('says a PDF without a text layer needs OCR', async () => {
    const e = await failure(extract({ name: 'scan.pdf', bytes: pdfBytes([{ image: true }, { image: true }]) }));
    expect(e.message).toBe('This PDF has no text (a scan?): HubDesk cannot read it without OCR.');
    expect(e.details).toEqual({ file: 'scan.pdf', reason: 'no_text' });
  });

  it('says a PDF is password-protected (standard security handler, a user password set)', async () => {
    const e = await failure(
      extract({ name: 'locked.pdf', bytes: pdfBytes(['Secret plans.'], { userPassword: 'hunter2' }) }),
    );
    expect(e.message).toBe('This PDF is password-protected.');
    expect(e.details.reason).toBe('password');
  });

  it('says a damaged PDF is damaged', async () => {
    const e = await failure(extract({ name: 'cut.pdf', bytes: pdfBytes(['Some text here.']).slice(0, 60) }));
    expect(e.details.reason).toBe('damaged');
    expect(e.message).toMatch(/^This PDF is damaged or not a PDF/);
  });
});

describe('extract: DOCX, HTML, CSV, JSON', () => {
  it('takes DOCX headings from their Heading styles, and its tables', async () => {
    const d = await extract({
      name: 'plan.docx',
      bytes: docxBytes([
        { style: 'Heading1', text: 'Plan' },
        { text: 'Why we do it.' },
        { style: 'Heading2', text: 'Costs' },
        {
          table: [
            ['Item', 'Cost'],
            ['Rent', '1200'],
          ],
        },
        { style: 'Heading1', text: 'Risks' },
        { text: 'Few.' },
      ]),
    });
    expect(d.kind).toBe('docx');
    expect(sectionTexts(d).map((s) => [s.headings, s.text])).toEqual([
      [['Plan'], '# Plan\n\nWhy we do it.\n\n'],
      [['Plan', 'Costs'], '## Costs\n\n| Item | Cost |\n| --- | --- |\n| Rent | 1200 |\n\n'],
      [['Risks'], '# Risks\n\nFew.'],
    ]);
  });

  it('says a Word file that is not a zip (encrypted, or old .doc) cannot be read, and why', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect((await failure(extract({ name: 'locked.docx', bytes: ole }))).details.reason).toBe('password');
    expect((await failure(extract({ name: 'bad.docx', bytes: utf8('not a zip at all') }))).details.reason).toBe(
      'damaged',
    );
  });

  it('keeps HTML visible text and headings, dropping script, style and the head', async () => {
    const html =
      '<!doctype html><html><head><title>T</title><style>p{color:red}</style></head><body>' +
      '<script>var hidden = "SCRIPT TEXT";</script><h1>Title &amp; more</h1><p>First   para <b>bold</b>.</p>' +
      '<noscript>enable js</noscript><h2>Part</h2><ul><li>one</li><li>two</li></ul><pre>code\n  indented</pre></body></html>';
    const d = await extract({ name: 'page.html', bytes: utf8(html) });
    expect(d.text).not.toMatch(/SCRIPT TEXT|color:red|enable js|\bT\b/);
    expect(sectionTexts(d).map((s) => [s.headings, s.text])).toEqual([
      [['Title & more'], '# Title & more\n\nFirst para bold.\n\n'],
      [['Title & more', 'Part'], '## Part\n\n- one\n\n- two\n\n```\ncode\n  indented\n```'],
    ]);
  });

  it('renders CSV as a table under its header row (quoted fields kept whole), TSV by tabs', async () => {
    const d = await extract({
      name: 'people.csv',
      bytes: utf8('name,city,note\r\nAda,London,"says ""hi"", often"\nLin,"New\nYork",a|b\n'),
    });
    expect(d.text).toBe(
      '| name | city | note |\n| --- | --- | --- |\n| Ada | London | says "hi", often |\n| Lin | New York | a\\|b |',
    );
    const t = await extract({ name: 'x.tsv', bytes: utf8('a\tb\n1\t2\n') });
    expect(t.text).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('pretty-prints JSON with top-level keys as headings, and says when it is not valid', async () => {
    const d = await extract({ name: 'cfg.json', bytes: utf8('{"name":"hub","deps":{"a":1}}') });
    expect(sectionTexts(d).map((s) => [s.headings, s.text])).toEqual([
      [['name'], '"name": "hub"'],
      [['deps'], '"deps": {\n  "a": 1\n}'],
    ]);
    expect((await failure(extract({ name: 'bad.json', bytes: utf8('{"a":') }))).message).toMatch(
      /^This JSON file is not valid JSON/,
    );
  });
});
