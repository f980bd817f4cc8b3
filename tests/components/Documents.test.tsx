// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { DocumentInfo, KnowledgeBase, ReplyContext } from '@shared/contract/documents';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi(false)));
const { Citations } = await import('../../renderer/src/pages/chat/documents/Citations');
const { ConversationDocs } = await import('../../renderer/src/pages/chat/documents/ConversationDocs');
const { DocumentsPanel } = await import('../../renderer/src/pages/chat/documents/DocumentsPanel');
const { useDocuments } = await import('../../renderer/src/store/documents');

const doc = (patch: Partial<DocumentInfo> = {}): DocumentInfo => ({
  id: 'd_1',
  source: 's_1',
  name: 'report.pdf',
  path: 'report.pdf',
  sizeBytes: 1000,
  state: 'embedding',
  chunks: 400,
  chunksDone: 100,
  tokens: 90_000,
  chunksPerSecond: 25,
  etaMs: 12_000,
  pinned: false,
  ...patch,
});
const base = (documents: DocumentInfo[]): KnowledgeBase => ({
  id: 'b_own',
  name: 'This chat',
  conversation: 'c_1',
  sources: documents.map((d) => ({ id: d.source, kind: 'upload', path: d.name, exists: true })),
  documents,
});
const meta = { id: 'c_1', bases: [] } as unknown as ConversationMeta;

beforeEach(() => {
  main.reset();
  useDocuments.setState({ bases: {}, uploads: [] });
});
afterEach(cleanup);

describe('Sources under a reply', () => {
  const context: ReplyContext = {
    mode: 'retrieved',
    citations: [
      { n: 1, chunk: 7, document: 'd_1', name: 'report.pdf', page: 3, excerpt: 'The vault code is 4417.' },
      { n: 2, chunk: 9, document: 'd_1', name: 'report.pdf', page: 8, excerpt: 'Other.' },
    ],
    notIndexed: ['late.docx'],
  };

  it('says how the documents went, numbers the passages, and opens one by keyboard with its place', async () => {
    render(<Citations context={context} />);
    expect(screen.getByTestId('msg-sources').textContent).toContain('Retrieved passages');
    expect(screen.getByTestId('msg-not-indexed').textContent).toContain('late.docx');
    const chips = screen.getAllByTestId('source-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['[1] report.pdf p. 3', '[2] report.pdf p. 8']);
    chips[0].focus();
    await userEvent.keyboard('{Enter}');
    const call = await main.next('docs.passage');
    expect(call.input).toEqual({ chunk: 7 });
    await call.answer({
      chunk: 7,
      document: 'd_1',
      name: 'report.pdf',
      path: 'docs/report.pdf',
      page: 3,
      heading: 'Security',
      text: 'Full passage: the vault code is 4417.',
    });
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByTestId('passage-text').textContent).toContain('vault code is 4417');
    expect(dialog.textContent).toContain('page 3 · Security');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(chips[0]);
  });

  it("links the reply's [n] markers to their sources, not those in code or with no such source", async () => {
    render(
      <div className="msg-bubble">
        <div
          className="msg-body"
          dangerouslySetInnerHTML={{ __html: '<p>It is 4417 [1], see [7].</p><pre><code>a[1]</code></pre>' }}
        />
        <Citations context={context} text="x" />
      </div>,
    );
    const marker = screen.getByRole('button', { name: 'Source 1: report.pdf' });
    expect(marker.textContent).toBe('[1]');
    expect(document.querySelectorAll('.doc-cite')).toHaveLength(1);
    expect(document.querySelector('p')!.textContent).toBe('It is 4417 [1], see [7].');
    await userEvent.click(marker);
    expect((await main.next('docs.passage')).input).toEqual({ chunk: 7 });
  });

  it('shows the excerpt the reply was given when the passage is gone', async () => {
    render(<Citations context={context} />);
    await userEvent.click(screen.getAllByTestId('source-chip')[0]);
    await (await main.next('docs.passage')).fail({ code: 'not_found', message: 'This passage was removed.' });
    expect(screen.getByRole('dialog').textContent).toContain('The vault code is 4417.');
  });
});

describe('Documents of a conversation', () => {
  it('shows progress live from the watch, and the error in words per file', async () => {
    render(<ConversationDocs meta={meta} />);
    const watch = await main.stream('docs.watch');
    expect(watch.input).toEqual({ conversation: 'c_1' });
    await watch.events({
      bases: [
        base([
          doc(),
          doc({
            id: 'd_2',
            source: 's_2',
            name: 'scan.pdf',
            path: 'scan.pdf',
            state: 'error',
            error: { code: 'invalid_input', message: 'scan.pdf has no text (a scanned PDF?): run OCR on it first.' },
          }),
        ]),
      ],
    });
    expect(screen.getByTestId('doc-strip').textContent).toContain('2 documents · 1 indexing · 1 failed');
    await userEvent.click(screen.getByRole('button', { name: /2 documents/ }));
    const rows = screen.getAllByTestId('doc-row');
    expect(rows[0].textContent).toContain('Indexing 100/400 chunks · 25.0 chunks/s · 12 s left');
    expect(rows[1].textContent).toContain('run OCR on it first');
    // Send whole asks main, and the answer shows at once.
    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Send whole' }));
    const pin = await main.next('docs.pin');
    expect(pin.input).toEqual({ document: 'd_1', pinned: true });
    await pin.answer({ base: base([doc({ pinned: true })]) });
    expect(within(screen.getAllByTestId('doc-row')[0]).getByRole('button', { name: /Sent whole/ })).toBeTruthy();
  });

  it('uploads a dropped file in parts, then attaches it to the conversation', async () => {
    render(<ConversationDocs meta={meta} />);
    await main.stream('docs.watch');
    useDocuments.getState().upload({ conversation: 'c_1' }, [new File(['hello documents'], 'notes.md')]);
    const part = await main.next('docs.uploadPart');
    expect(atob(String(part.input.data))).toBe('hello documents');
    await part.answer({ upload: 'u_1' });
    const attach = await main.next('docs.attachUpload');
    expect(attach.input).toEqual({ target: { conversation: 'c_1' }, upload: 'u_1', name: 'notes.md' });
    await attach.answer({ base: base([doc({ name: 'notes.md', path: 'notes.md', state: 'queued' })]) });
    expect(useDocuments.getState().uploads).toEqual([]);
  });

  it('an empty file is refused in words without asking main', async () => {
    render(<ConversationDocs meta={meta} />);
    await main.stream('docs.watch');
    useDocuments.getState().upload({ conversation: 'c_1' }, [new File([], 'empty.txt')]);
    await userEvent.click(await screen.findByRole('button', { name: /1 document/ }));
    expect(screen.getByTestId('upload-row').textContent).toContain('This file is empty');
    expect(main.waiting('docs.uploadPart')).toEqual([]);
  });
});

describe('Stop and Resume on a base', () => {
  /** The panel as the chat shows it: its base read from the store, where every action's answer lands. */
  function Panel() {
    const b = useDocuments((s) => s.bases['c_1']?.find((x) => x.id === 'b_own'));
    return <DocumentsPanel base={b} />;
  }

  it('shows what main says of the base: Stop while it indexes, Resume once main answers it paused, and back', async () => {
    useDocuments.getState().setBases('c_1', [base([doc()])]);
    render(<Panel />);
    await userEvent.click(screen.getByRole('button', { name: 'Stop indexing' }));
    const cancel = await main.next('docs.cancel');
    expect(cancel.input).toEqual({ base: 'b_own' });
    // Until main answers, the panel does not claim it stopped.
    expect(screen.queryByRole('button', { name: 'Resume indexing' })).toBeNull();
    await cancel.answer({ base: { ...base([doc()]), paused: true } });
    await userEvent.click(screen.getByRole('button', { name: 'Resume indexing' }));
    await (await main.next('docs.resume')).answer({ base: { ...base([doc()]), paused: false } });
    expect(screen.getByRole('button', { name: 'Stop indexing' })).toBeTruthy();
  });

  it('a Stop main refuses leaves the base indexing, with the refusal in words', async () => {
    useDocuments.getState().setBases('c_1', [base([doc()])]);
    render(<Panel />);
    await userEvent.click(screen.getByRole('button', { name: 'Stop indexing' }));
    await (await main.next('docs.cancel')).fail({ code: 'not_found', message: 'This base was deleted.' });
    expect(screen.getByRole('button', { name: 'Stop indexing' })).toBeTruthy();
    expect(screen.getByText('This base was deleted.')).toBeTruthy();
  });
});
