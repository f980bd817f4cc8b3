// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { LocalModel } from '@shared/contract/local-models';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
location.hash = '#/chat';
const { useChat } = await import('../../renderer/src/store/chat');
const { useEndpoints } = await import('../../renderer/src/store/endpoints');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useStatus } = await import('../../renderer/src/store/status');
const { useRoute } = await import('../../renderer/src/store/route');
const { ConversationSettings } = await import('../../renderer/src/pages/chat/ConversationSettings');
const { ChatPage } = await import('../../renderer/src/pages/chat/ChatPage');
const { Thread } = await import('../../renderer/src/pages/chat/Thread');
const { useEngineName, shownModel } = await import('../../renderer/src/features/engines/registry');

const MB = 1_000_000;
const qwen = 'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf';
const model = (id: string, patch: Partial<LocalModel> = {}): LocalModel => ({
  id,
  name: id.split('/').at(-1)!.replace('.gguf', ''),
  path: `/home/me/.cache/huggingface/hub/${id}`,
  parts: 1,
  source: 'hf-cache',
  folder: '/home/me/.cache/huggingface/hub',
  sizeBytes: 640 * MB,
  embedding: false,
  deletable: false,
  ...patch,
});
const library: LocalModel[] = [
  model(qwen, {
    quant: 'Q8_0',
    title: 'Qwen3 0.6B',
    plan: { contextSize: 4096, gpuLayers: 0, explanation: 'Fits in RAM: needs about 1.1 GB of 15 GB.' },
  }),
  model('/models/tiny.gguf', { source: 'folder', folder: '/models', quant: 'F32', sizeBytes: 500_000 }),
  model('nomic-ai/nomic-embed-text-v1.5-GGUF/nomic-embed-text-v1.5.Q4_K_M.gguf', { embedding: true }),
  model('/models/broken.gguf', { source: 'folder', folder: '/models', problem: 'Not a GGUF file.' }),
];

const meta = (patch: Partial<ConversationMeta> = {}) =>
  conversationMeta({ id: 'c_1', title: 'Local', model: 'llama3.2:latest', ...patch });

beforeEach(() => {
  main.reset();
  main.answer('chat.toolSources', () => ({ sources: [] }));
  main.answer('chat.capabilities', () => ({ capabilities: [] }));
  main.answer('endpoints.list', () => ({ endpoints: [] }));
  useEndpoints.setState({ list: undefined, error: undefined, listing: false });
  useChat.setState({ list: [], listNext: undefined, convs: {}, currentId: undefined, drafts: {}, running: {} });
  useSettings.setState({ view: { values: {}, secrets: [], bindings: [] } as unknown as SettingsView });
  useStatus.setState({ ollama: undefined });
  useRoute.setState({ page: 'chat', params: [] });
});
afterEach(cleanup);

describe('the built-in engine in a conversation’s settings', () => {
  it('is offered beside Ollama; choosing it drops an Ollama model (it is no file on disk)', async () => {
    main.answer('chat.models', () => ({ models: [{ name: 'llama3.2:latest', running: false }] }));
    render(<ConversationSettings meta={meta()} capabilities={[]} />);
    const engines = within(screen.getByRole('radiogroup', { name: 'Backend' })).getAllByRole('radio');
    expect(engines.map((r) => r.textContent)).toEqual(['Ollama', 'Built-in (llama.cpp)', 'HF router']);
    await userEvent.click(screen.getByRole('radio', { name: 'Built-in (llama.cpp)' }));
    expect((await main.next('chat.update')).input).toEqual({ id: 'c_1', patch: { backend: 'local', model: '' } });
  });

  it('lists the models on disk that can chat, grouped by where they are, with quant and size; a pick saves it', async () => {
    const m = meta({ backend: 'local', model: qwen });
    render(<ConversationSettings meta={m} capabilities={[]} />);
    expect(screen.getByText('Looking for models on disk…')).toBeTruthy();
    await (await main.next('local.models')).answer({ models: library, folders: [] });
    const picker = screen.getByTestId('local-model-select') as HTMLSelectElement;
    const groups = [...picker.querySelectorAll('optgroup')].map((g) => [
      g.label,
      [...g.querySelectorAll('option')].map((o) => o.textContent),
    ]);
    // The embedding model and the broken file are not offered.
    expect(groups).toEqual([
      ['Hugging Face cache', ['Qwen3 0.6B · Q8_0 · 640 MB']],
      ['Your folders', ['tiny · F32 · 500 KB']],
    ]);
    expect(picker.value).toBe(qwen);
    expect(screen.getByTestId('local-model-info').textContent).toMatch(/Fits in RAM/);
    // Ollama is not asked for its models on the built-in engine.
    expect(main.waiting('chat.models')).toEqual([]);
    await userEvent.selectOptions(picker, 'tiny · F32 · 500 KB');
    expect((await main.next('chat.update')).input).toEqual({ id: 'c_1', patch: { model: '/models/tiny.gguf' } });
  });

  it('no model on disk: a short note and the way to Local models; a model since deleted stays shown', async () => {
    render(<ConversationSettings meta={meta({ backend: 'local', model: '' })} capabilities={[]} />);
    await (await main.next('local.models')).answer({ models: [library[2], library[3]], folders: [] });
    const note = screen.getByTestId('local-none');
    expect(note.textContent).toMatch(/No model on disk/);
    expect(within(note).getByRole('link').getAttribute('href')).toBe('#/models/builtin');
    cleanup();
    render(<ConversationSettings meta={meta({ backend: 'local', model: '/gone/old.gguf' })} capabilities={[]} />);
    await (await main.next('local.models')).answer({ models: library, folders: [] });
    expect((screen.getByTestId('local-model-select') as HTMLSelectElement).selectedOptions[0].textContent).toBe(
      '/gone/old.gguf (not on disk)',
    );
  });

  it('switching from the built-in engine to Ollama or the router leaves the model to be chosen', async () => {
    main.answer('local.models', () => ({ models: library, folders: [] }));
    render(<ConversationSettings meta={meta({ backend: 'local', model: qwen })} capabilities={[]} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Ollama' }));
    const toOllama = await main.next('chat.update');
    expect(toOllama.input).toEqual({ id: 'c_1', patch: { backend: 'ollama', model: '' } });
    await toOllama.answer(meta({ backend: 'local', model: qwen }));
    await userEvent.click(screen.getByRole('radio', { name: 'HF router' }));
    expect((await main.next('chat.update')).input).toEqual({ id: 'c_1', patch: { backend: 'provider', model: '' } });
  });

  it('names the engine, and a local model by its file name', () => {
    let name: ReturnType<typeof useEngineName> | undefined;
    const Probe = () => ((name = useEngineName({ backend: 'local', provider: 'auto' })), null);
    render(<Probe />);
    expect(name).toEqual({ name: 'Built-in engine', where: 'Replies come from llama.cpp inside HubDesk.' });
    expect(shownModel({ backend: 'local', model: qwen })).toBe('Qwen3-0.6B-Q8_0');
    expect(shownModel({ backend: 'local', model: 'C:\\models\\tiny.gguf' })).toBe('tiny');
    expect(shownModel({ backend: 'ollama', model: 'llama3.2:latest' })).toBe('llama3.2:latest');
  });
});

describe('a new chat on the built-in engine, and the engine offered without Ollama', () => {
  it('#/chat/new/local/<id> creates a conversation on the built-in engine with that model, then opens it', async () => {
    main.answer('chat.models', () => ({ models: [] }));
    useRoute.setState({ page: 'chat', params: ['new', 'local', qwen] });
    render(<ChatPage />);
    const create = await main.next('chat.create');
    expect(create.input).toEqual({ backend: 'local', model: qwen });
    await create.answer(meta({ id: 'c_new', backend: 'local', model: qwen }));
    await vi.waitFor(() => expect(location.hash).toBe('#/chat/c_new'));
  });

  it('a typed link with the id’s slashes unencoded works too', async () => {
    main.answer('chat.models', () => ({ models: [] }));
    useRoute.setState({ page: 'chat', params: ['new', 'local', ...qwen.split('/')] });
    render(<ChatPage />);
    expect((await main.next('chat.create')).input).toEqual({ backend: 'local', model: qwen });
  });

  it('no Ollama and no conversation: the models on disk, each a new chat on the built-in engine', async () => {
    useStatus.setState({ ollama: { host: 'http://127.0.0.1:11434', reachable: false } });
    render(<ChatPage />);
    await (await main.next('chat.list')).answer({ conversations: [] });
    await (await main.next('local.models')).answer({ models: library, folders: [] });
    const offer = screen.getByTestId('local-offer');
    expect(screen.getByText(/Ollama is not answering/)).toBeTruthy();
    const links = within(offer).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Chat with Qwen3 0.6B', `#/chat/new/local/${encodeURIComponent(qwen)}`],
      ['Chat with tiny', `#/chat/new/local/${encodeURIComponent('/models/tiny.gguf')}`],
    ]);
    expect(main.waiting('local.recommend')).toEqual([]);
  });

  it('nothing on disk: the recommendation, its download here, then Start chatting', async () => {
    useStatus.setState({ ollama: { host: 'http://127.0.0.1:11434', reachable: false } });
    render(<ChatPage />);
    await (await main.next('chat.list')).answer({ conversations: [] });
    await (await main.next('local.models')).answer({ models: [], folders: [] });
    await (
      await main.next('local.recommend')
    ).answer({
      recommendation: {
        repo: 'Qwen/Qwen3-0.6B-GGUF',
        file: 'Qwen3-0.6B-Q8_0.gguf',
        quant: 'Q8_0',
        sizeBytes: 640 * MB,
        title: 'Qwen3 0.6B',
        why: 'Small and quick on this machine’s CPU: about 1 GB of your 15 GB RAM.',
      },
    });
    const rec = screen.getByTestId('local-offer-rec');
    expect(rec.textContent).toMatch(/Qwen3 0\.6B.*Q8_0 · 640 MB.*Small and quick/);
    // The offer's download panel asks the library and the downloads for itself.
    await (await main.next('local.models')).answer({ models: [], folders: [] });
    const watch = await main.stream('local.downloads.watch');
    await watch.events({ downloads: [] });
    await userEvent.click(within(rec).getByRole('button', { name: 'Download and run' }));
    expect((await main.next('local.download.start')).input).toEqual({
      repo: 'Qwen/Qwen3-0.6B-GGUF',
      file: 'Qwen3-0.6B-Q8_0.gguf',
    });
    const d = {
      id: 'd1',
      repo: 'Qwen/Qwen3-0.6B-GGUF',
      revision: 'main',
      file: 'Qwen3-0.6B-Q8_0.gguf',
      files: ['Qwen3-0.6B-Q8_0.gguf'],
      receivedBytes: 640 * MB,
      totalBytes: 640 * MB,
      bytesPerSecond: 0,
      createdAt: '2026-11-26T10:00:00.000Z',
    };
    await watch.events({ downloads: [{ ...d, state: 'downloading', receivedBytes: 320 * MB }] });
    expect(within(rec).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    await watch.events({ downloads: [{ ...d, state: 'done', modelId: qwen }] });
    expect(within(rec).getByRole('link', { name: 'Start chatting' }).getAttribute('href')).toBe(
      `#/chat/new/local/${encodeURIComponent(qwen)}`,
    );
  });

  it('a new Ollama conversation while Ollama does not answer: a model on disk switches it to the built-in engine', async () => {
    main.answer('chat.models', () => {
      throw { code: 'unavailable', message: 'Ollama is not running at http://127.0.0.1:11434.' };
    });
    useStatus.setState({ ollama: { host: 'http://127.0.0.1:11434', reachable: false } });
    const m = meta({ model: '' });
    useChat.setState({ list: [m], convs: { c_1: { meta: m, messages: [], loading: false } }, currentId: 'c_1' });
    render(<Thread id="c_1" />);
    await (await main.next('local.models')).answer({ models: library, folders: [] });
    expect(
      screen.getByText(/Ollama is not answering on this computer: start it, or let the built-in engine reply/),
    ).toBeTruthy();
    await userEvent.click(
      within(screen.getByTestId('local-offer')).getByRole('button', { name: 'Chat with Qwen3 0.6B' }),
    );
    expect((await main.next('chat.update')).input).toEqual({ id: 'c_1', patch: { backend: 'local', model: qwen } });
  });

  it('with Ollama answering, the empty chat page keeps its Ollama wording and offers nothing more', async () => {
    useStatus.setState({ ollama: { host: 'http://127.0.0.1:11434', reachable: true } });
    render(<ChatPage />);
    await (await main.next('chat.list')).answer({ conversations: [] });
    expect(screen.getByText(/Chat with a model pulled into Ollama/)).toBeTruthy();
    expect(screen.queryByTestId('local-offer')).toBeNull();
    expect(main.waiting('local.models')).toEqual([]);
  });
});
