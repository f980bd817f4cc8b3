// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Endpoint } from '@shared/contract/endpoints';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
location.hash = '#/chat/c_studio';
const { useChat } = await import('../../renderer/src/store/chat');
const { useEndpoints } = await import('../../renderer/src/store/endpoints');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useRoute } = await import('../../renderer/src/store/route');
const { ConversationSettings } = await import('../../renderer/src/pages/chat/ConversationSettings');
const { ChatPage } = await import('../../renderer/src/pages/chat/ChatPage');

const studio: Endpoint = {
  id: 'e_studio',
  name: 'studio',
  preset: 'lmstudio',
  baseUrl: 'http://127.0.0.1:1234/v1',
  hasKey: false,
  source: 'user',
};
const meta = (patch: Partial<ConversationMeta> = {}) =>
  conversationMeta({
    id: 'c_studio',
    title: 'Studio',
    backend: 'endpoint',
    endpoint: 'e_studio',
    model: 'qwen/qwen3-8b',
    ...patch,
  });

beforeEach(() => {
  main.reset();
  main.answer('chat.models', () => ({ models: [] }));
  main.answer('chat.toolSources', () => ({ sources: [] }));
  useEndpoints.setState({ list: undefined, error: undefined, listing: false });
  useChat.setState({ list: [], listNext: undefined, convs: {}, currentId: undefined, drafts: {}, running: {} });
  useSettings.setState({ view: { values: {}, secrets: [], bindings: [] } as unknown as SettingsView });
  useRoute.setState({ page: 'chat', params: ['c_studio'] });
});
afterEach(cleanup);

describe('the context length an endpoint does not say', () => {
  async function opened(contextLength?: number) {
    render(<ConversationSettings meta={meta()} capabilities={[]} />);
    await (await main.next('endpoints.list')).answer({ endpoints: [studio] });
    await (
      await main.next('endpoints.models')
    ).answer({ models: [{ id: 'qwen/qwen3-8b', type: 'llm', ...(contextLength ? { contextLength } : {}) }] });
  }

  it('is asked once under the model picker, with 4096 suggested and why; Keep keeps it and the question goes', async () => {
    await opened();
    const ask = screen.getByTestId('endpoint-context');
    const field = within(ask).getByLabelText('What context length does studio run qwen/qwen3-8b with?');
    expect((field as HTMLInputElement).value).toBe('4096');
    expect(ask.textContent).toMatch(/The server does not say\./);
    await userEvent.clear(field);
    await userEvent.type(field, '8192');
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep' }));
    const call = await main.next('endpoints.setContext');
    expect(call.input).toEqual({ id: 'e_studio', model: 'qwen/qwen3-8b', contextLength: 8192 });
    await call.answer({ saved: true });
    expect(screen.queryByTestId('endpoint-context')).toBeNull();
    expect(screen.getByTestId('endpoint-model-info').textContent).toMatch(/^Context: 8,192 tokens\./);
    expect(
      within(screen.getByTestId('model-select')).getByRole('option', { name: /8,192-token context/ }),
    ).toBeTruthy();
  });

  it('a number out of bounds is refused in place, and a refusal from main is shown; nothing is asked when known', async () => {
    await opened();
    const ask = screen.getByTestId('endpoint-context');
    const field = within(ask).getByRole('spinbutton');
    await userEvent.clear(field);
    await userEvent.type(field, '12');
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep' }));
    expect(within(ask).getByRole('alert').textContent).toMatch(/^Type a whole number of tokens from 256/);
    expect(main.waiting('endpoints.setContext')).toHaveLength(0);
    await userEvent.clear(field);
    await userEvent.type(field, '4096{Enter}');
    await (
      await main.next('endpoints.setContext')
    ).fail({ code: 'not_found', message: 'This endpoint was removed — add it again in Settings → Endpoints.' });
    expect(within(ask).getByRole('alert').textContent).toBe(
      'This endpoint was removed — add it again in Settings → Endpoints.',
    );
    cleanup();
    useEndpoints.setState({ list: undefined });
    await opened(32768);
    expect(screen.getByTestId('endpoint-model-info').textContent).toMatch(/^Context: 32,768 tokens\./);
    expect(screen.queryByTestId('endpoint-context')).toBeNull();
  });
});

describe('images on an endpoint model', () => {
  async function page(capabilities: string[]) {
    render(<ChatPage />);
    await (await main.next('chat.list')).answer({ conversations: [meta()] });
    await (
      await main.next('chat.get')
    ).answer({ meta: meta(), messages: [], versions: {}, hasOlder: false, hasNewer: false });
    await (await main.next('endpoints.list')).answer({ endpoints: [studio] });
    const call = await main.next('chat.capabilities');
    expect(call.input).toEqual({ id: 'c_studio' });
    await call.answer({ capabilities });
  }

  it('the composer offers Image… when main says the endpoint model takes images', async () => {
    await page(['completion', 'tools', 'vision']);
    expect(screen.getByRole('button', { name: 'Image…' })).toBeTruthy();
  });

  it('and not for a model that does not', async () => {
    await page(['completion', 'tools']);
    expect(screen.queryByRole('button', { name: 'Image…' })).toBeNull();
  });
});
