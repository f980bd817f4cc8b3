// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Endpoint, EndpointModel } from '@shared/contract/endpoints';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
location.hash = '#/chat/c_local';
const { useChat } = await import('../../renderer/src/store/chat');
const { useEndpoints } = await import('../../renderer/src/store/endpoints');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useRoute } = await import('../../renderer/src/store/route');
const { ConversationSettings } = await import('../../renderer/src/pages/chat/ConversationSettings');
const { ChatPage } = await import('../../renderer/src/pages/chat/ChatPage');

const endpoints: Endpoint[] = [
  {
    id: 'e_box',
    name: 'my box',
    preset: 'llama.cpp',
    baseUrl: 'http://127.0.0.1:8080/v1',
    hasKey: false,
    source: 'user',
  },
  { id: 'e_gpu', name: 'GPU box', preset: 'vllm', baseUrl: 'http://10.0.0.5:8000/v1', hasKey: true, source: 'user' },
];
const served: Record<string, EndpointModel[]> = {
  e_box: [{ id: 'Qwen3-0.6B-Q8_0.gguf', contextLength: 4096, trainedContext: 40960 }],
  e_gpu: [
    { id: 'Qwen/Qwen3-8B', contextLength: 32768, hubRepo: 'Qwen/Qwen3-8B' },
    { id: 'Qwen/Qwen3-4B', contextLength: 32768, hubRepo: 'Qwen/Qwen3-4B' },
  ],
};
const meta = (patch: Partial<ConversationMeta> = {}) =>
  conversationMeta({ id: 'c_local', title: 'Local', model: 'llama3.2:latest', ...patch });

beforeEach(() => {
  main.reset();
  main.answer('chat.models', () => ({ models: [{ name: 'llama3.2:latest', running: false }] }));
  main.answer('chat.toolSources', () => ({ sources: [] }));
  main.answer('chat.capabilities', () => ({ capabilities: [] }));
  useEndpoints.setState({ list: undefined, error: undefined, listing: false });
  useChat.setState({ list: [], listNext: undefined, convs: {}, currentId: undefined, drafts: {}, running: {} });
  useSettings.setState({ view: { values: {}, secrets: [], bindings: [] } as unknown as SettingsView });
  useRoute.setState({ page: 'chat', params: ['c_local'] });
});
afterEach(cleanup);

/** The settings open, main's endpoint list given, and each endpoint's models answered (or refused) in order. */
async function opened(m: ConversationMeta, list = endpoints, answer = true) {
  render(<ConversationSettings meta={m} capabilities={[]} />);
  await (await main.next('endpoints.list')).answer({ endpoints: list });
  if (answer)
    for (const e of list) {
      const call = await main.next('endpoints.models');
      expect(call.input).toEqual({ id: e.id });
      await call.answer({ models: served[e.id] });
    }
}

describe('a chat on one of the user’s endpoints', () => {
  it('the engine choice names each endpoint; choosing llama-server takes the one model it serves', async () => {
    await opened(meta());
    const engines = within(screen.getByRole('radiogroup', { name: 'Backend' }))
      .getAllByRole('radio')
      .map((r) => r.textContent);
    expect(engines).toEqual(['Ollama', 'Built-in (llama.cpp)', 'HF router', 'llama.cpp — my box', 'vLLM — GPU box']);
    await userEvent.click(screen.getByRole('radio', { name: 'llama.cpp — my box' }));
    expect((await main.next('chat.update')).input).toEqual({
      id: 'c_local',
      patch: { backend: 'endpoint', endpoint: 'e_box', model: 'Qwen3-0.6B-Q8_0.gguf' },
    });
  });

  it('an endpoint serving several models leaves the model to be chosen', async () => {
    await opened(meta());
    await userEvent.click(screen.getByRole('radio', { name: 'vLLM — GPU box' }));
    expect((await main.next('chat.update')).input).toEqual({
      id: 'c_local',
      patch: { backend: 'endpoint', endpoint: 'e_gpu', model: '' },
    });
  });

  it('the model picker groups every local engine’s models, with context lengths; a pick may change the engine', async () => {
    const m = meta({ backend: 'endpoint', endpoint: 'e_gpu', model: 'Qwen/Qwen3-8B' });
    await opened(m);
    expect(screen.getByRole('radio', { name: 'vLLM — GPU box' }).getAttribute('aria-checked')).toBe('true');
    const picker = screen.getByTestId('model-select') as HTMLSelectElement;
    const groups = [...picker.querySelectorAll('optgroup')].map((g) => [
      g.label,
      [...g.querySelectorAll('option')].map((o) => o.textContent),
    ]);
    expect(groups).toEqual([
      ['Ollama', ['llama3.2:latest']],
      ['llama.cpp — my box', ['Qwen3-0.6B-Q8_0.gguf (4,096-token context)']],
      ['vLLM — GPU box', ['Qwen/Qwen3-8B (32,768-token context)', 'Qwen/Qwen3-4B (32,768-token context)']],
    ]);
    expect(picker.selectedOptions[0].textContent).toBe('Qwen/Qwen3-8B (32,768-token context)');
    // The chosen model: its context, and its Hub page (the fit verdict is there).
    const info = screen.getByTestId('endpoint-model-info');
    expect(info.textContent).toMatch(/^Context: 32,768 tokens\. /);
    expect(within(info).getByRole('link').getAttribute('href')).toBe('#/catalogue/model/Qwen%2FQwen3-8B');

    // Each pick is one update (main's answer does not matter here: the picker shows what main holds).
    const picked = async (label: string) => {
      await userEvent.selectOptions(picker, label);
      const call = await main.next('chat.update');
      await call.answer(m);
      return call.input;
    };
    expect(await picked('Qwen/Qwen3-4B (32,768-token context)')).toEqual({
      id: 'c_local',
      patch: { model: 'Qwen/Qwen3-4B' },
    });
    expect(await picked('Qwen3-0.6B-Q8_0.gguf (4,096-token context)')).toEqual({
      id: 'c_local',
      patch: { backend: 'endpoint', endpoint: 'e_box', model: 'Qwen3-0.6B-Q8_0.gguf' },
    });
    expect(await picked('llama3.2:latest')).toEqual({
      id: 'c_local',
      patch: { backend: 'ollama', model: 'llama3.2:latest' },
    });
  });

  it('an endpoint that does not answer says so in its group; the others list their models meanwhile', async () => {
    await opened(meta(), endpoints, false);
    await (await main.next('endpoints.models')).answer({ models: served.e_box });
    const picker = screen.getByTestId('model-select');
    expect(within(picker).getByRole('option', { name: 'Listing models…' })).toHaveProperty('disabled', true);
    expect(within(picker).getByRole('option', { name: /Qwen3-0\.6B/ })).toBeTruthy();
    await (
      await main.next('endpoints.models')
    ).fail({ code: 'unavailable', message: 'Nothing is listening at 10.0.0.5:8000.' });
    expect(
      within(picker).getByRole('option', { name: 'Not answering: Nothing is listening at 10.0.0.5:8000.' }),
    ).toHaveProperty('disabled', true);
  });

  it('a conversation whose endpoint was removed says so, with the way out, and Send stays off', async () => {
    const gone = meta({ backend: 'endpoint', endpoint: 'e_old', model: 'mistral-7b' });
    render(<ChatPage />);
    await (await main.next('chat.list')).answer({ conversations: [gone] });
    await (
      await main.next('chat.get')
    ).answer({ meta: gone, messages: [], versions: {}, hasOlder: false, hasNewer: false });
    await (await main.next('endpoints.list')).answer({ endpoints });
    expect(screen.getByTestId('send-block').textContent).toMatch(/The endpoint this conversation used was removed/);
    expect(screen.getByText('removed endpoint · mistral-7b')).toBeTruthy();
    await userEvent.type(screen.getByTestId('composer'), 'hello{Enter}');
    expect(main.opened('chat.send')).toHaveLength(0);

    // The header's engine picker says so, and leads to Settings → Endpoints.
    const note = await screen.findByTestId('endpoint-gone');
    expect(screen.getByRole('radiogroup', { name: 'Backend' }).querySelector('[aria-checked="true"]')).toBeNull();
    await userEvent.click(within(note).getByRole('button', { name: 'Open Settings' }));
    expect(location.hash).toBe('#/settings');
  });

  it('a new chat follows an endpoint conversation with its endpoint, and never one whose endpoint is gone', async () => {
    const onBox = meta({ id: 'c_box', backend: 'endpoint', endpoint: 'e_box', model: 'Qwen3-0.6B-Q8_0.gguf' });
    const onOld = meta({ id: 'c_old', backend: 'endpoint', endpoint: 'e_old', updatedAt: '2026-11-23T00:00:00.000Z' });
    useEndpoints.setState({ list: endpoints });
    useChat.setState({ list: [onOld, onBox] });
    void useChat.getState().create();
    const call = await main.next('chat.create');
    expect(call.input).toEqual({
      backend: 'endpoint',
      endpoint: 'e_box',
      model: 'Qwen3-0.6B-Q8_0.gguf',
      provider: 'auto',
    });
  });
});
