// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
location.hash = '#/chat/c_routed';
const { useChat } = await import('../../renderer/src/store/chat');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useRoute } = await import('../../renderer/src/store/route');
const { ConversationSettings } = await import('../../renderer/src/pages/chat/ConversationSettings');
const { ChatPage } = await import('../../renderer/src/pages/chat/ChatPage');

const HUB_ID = 'meta-llama/Llama-3.1-8B-Instruct';
const GGUF_TAG = 'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M';

const meta = (patch: Partial<ConversationMeta> = {}): ConversationMeta =>
  conversationMeta({
    id: 'c_routed',
    title: 'Hosted',
    backend: 'provider',
    model: HUB_ID,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...patch,
  });

/** The settings as the page sees them: whether the token is set, and whether the router's host gets it. */
const settingsView = (token: boolean, bound = true) =>
  ({
    values: { routerUrl: 'https://router.example.test' },
    secrets: [{ name: 'hfToken', set: token, source: token ? 'env' : 'none', persistent: false, envVar: 'HF_TOKEN' }],
    bindings: [{ setting: 'routerUrl', key: 'hfToken', origin: 'https://router.example.test', bound }],
  }) as unknown as SettingsView;

beforeEach(() => {
  main.reset();
  for (const name of ['chat.models', 'chat.toolSources', 'chat.capabilities'])
    main.answer(name, () =>
      name === 'chat.models' ? { models: [] } : name === 'chat.toolSources' ? { sources: [] } : { capabilities: [] },
    );
  main.answer('hub.model', () => ({ model: { id: HUB_ID, inferenceProviderMapping: [] } }));
  useChat.setState({ list: [], listNext: undefined, convs: {}, currentId: undefined, drafts: {}, running: {} });
  useSettings.setState({ view: settingsView(true) });
  useRoute.setState({ page: 'chat', params: ['c_routed'] });
});
afterEach(cleanup);

async function switchTo(engine: 'Ollama' | 'HF router', from: ConversationMeta) {
  render(<ConversationSettings meta={from} capabilities={[]} />);
  await userEvent.click(screen.getByRole('radio', { name: engine }));
}

describe('a conversation’s model fits its engine', () => {
  it('switching an Ollama tag to the router leaves the model to be chosen (a GGUF tag is no router id)', async () => {
    await switchTo('HF router', meta({ backend: 'ollama', model: GGUF_TAG }));
    expect((await main.next('chat.update')).input).toEqual({
      id: 'c_routed',
      patch: { backend: 'provider', model: '' },
    });
  });

  it('switching a Hub id to Ollama leaves the model to be chosen; a Hub-shaped Ollama name goes to the router', async () => {
    await switchTo('Ollama', meta());
    expect((await main.next('chat.update')).input).toEqual({ id: 'c_routed', patch: { backend: 'ollama', model: '' } });
    cleanup();
    await switchTo('HF router', meta({ backend: 'ollama', model: 'acme/chat-model' }));
    expect((await main.waiting('chat.update')).at(-1)!.input).toEqual({
      id: 'c_routed',
      patch: { backend: 'provider', model: 'acme/chat-model' },
    });
  });

  it('choosing the engine already in use changes nothing; a router conversation saved with a tag says so', async () => {
    await switchTo('HF router', meta({ model: GGUF_TAG }));
    expect(main.waiting('chat.update')).toHaveLength(0);
    expect(screen.getByRole('alert').textContent).toContain(`“${GGUF_TAG}” is not a Hub model id`);
  });
});

describe('the router without a Hugging Face token is said before sending', () => {
  async function openThread(m: ConversationMeta) {
    render(<ChatPage />);
    await (await main.next('chat.list')).answer({ conversations: [m] });
    await (
      await main.next('chat.get')
    ).answer({ meta: m, messages: [], versions: {}, hasOlder: false, hasNewer: false });
  }

  it('beside the composer, with the way to Settings; Send stays off until the token is set', async () => {
    useSettings.setState({ view: settingsView(false) });
    await openThread(meta());
    const block = screen.getByTestId('send-block');
    expect(block.textContent).toContain('Set a Hugging Face token in Settings → Secrets to chat with hosted models.');
    await userEvent.type(screen.getByTestId('composer'), 'hello');
    expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(true);
    await userEvent.keyboard('{Enter}');
    expect(main.opened('chat.send')).toHaveLength(0);
    // Set in Settings (or the environment): the page learns it from the settings view.
    useSettings.setState({ view: settingsView(true) });
    expect(await screen.findByTestId('send')).toHaveProperty('disabled', false);
    expect(screen.queryByTestId('send-block')).toBeNull();
    useSettings.setState({ view: settingsView(false) });
    await userEvent.click(await screen.findByRole('button', { name: 'Open Settings' }));
    expect(location.hash).toBe('#/settings');
  });

  it('a token the router’s host does not get says to approve that host', async () => {
    useSettings.setState({ view: settingsView(true, false) });
    await openThread(meta());
    expect(screen.getByTestId('send-block').textContent).toMatch(
      /not sent to https:\/\/router\.example\.test.*Where your keys go/,
    );
  });
});

describe('a new chat starts on a model that can answer', () => {
  const list = [
    meta({ id: 'c_legacy', model: GGUF_TAG, updatedAt: '2026-11-22T10:00:00.000Z' }),
    meta({ id: 'c_hosted', updatedAt: '2026-11-21T10:00:00.000Z' }),
    meta({ id: 'c_local', backend: 'ollama', model: 'qwen3:8b', updatedAt: '2026-11-20T10:00:00.000Z' }),
  ];
  const created = async () => {
    void useChat.getState().create();
    const call = await main.next('chat.create');
    await call.answer(meta({ id: 'c_new', ...(call.input as Partial<ConversationMeta>) }));
    return call.input;
  };

  it('never an Ollama tag on the router; the router only with its token, else the last Ollama model', async () => {
    useChat.setState({ list });
    expect(await created()).toEqual({ backend: 'provider', model: HUB_ID, provider: 'auto' });
    useChat.setState({ list, currentId: undefined });
    useSettings.setState({ view: settingsView(false) });
    expect(await created()).toEqual({ backend: 'ollama', model: 'qwen3:8b', provider: 'auto' });
  });

  it('the open conversation is followed only when it can answer', async () => {
    useChat.setState({
      list,
      currentId: 'c_legacy',
      convs: { c_legacy: { meta: list[0], messages: [], loading: false } },
    });
    expect(await created()).toEqual({ backend: 'provider', model: HUB_ID, provider: 'auto' });
  });
});
