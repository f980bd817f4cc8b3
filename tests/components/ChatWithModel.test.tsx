// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ChatWithModel } = await import('../../renderer/src/features/engines/ChatWithModel');

const show = (capabilities?: string[]) => ({
  license: '',
  modelfile: '',
  parameters: '',
  template: '',
  details: { family: 'nomic-bert' },
  model_info: {},
  ...(capabilities ? { capabilities } : {}),
});

beforeEach(() => main.reset());
afterEach(cleanup);

// After a pull (Local models, or "Run locally with Ollama" on a model page): the way on from the pulled model.
describe('the way on from a pulled model', () => {
  it('a link to a new chat while Ollama has not said, and once it says the model completes text', async () => {
    render(<ChatWithModel model="llama3.2" label="Chat now" className="btn" />);
    expect(screen.getByRole('link', { name: 'Chat now' }).getAttribute('href')).toBe('#/chat/new/ollama/llama3.2');
    const call = await main.next('ollama.show');
    expect(call.input).toEqual({ model: 'llama3.2' });
    await call.answer(show(['completion', 'tools']));
    expect(screen.getByRole('link', { name: 'Chat now' })).toBeTruthy();
  });

  it('an embedding model is not offered a chat: it says so, and where it is used', async () => {
    render(<ChatWithModel model="nomic-embed-text" label="Chat now" className="btn" />);
    await (await main.next('ollama.show')).answer(show(['embedding']));
    expect(screen.queryByRole('link', { name: 'Chat now' })).toBeNull();
    expect(screen.getByTestId('no-chat').textContent).toMatch(/embedding model.*cannot chat/);
    expect(screen.getByRole('link', { name: 'Local models' }).getAttribute('href')).toBe('#/models');
  });

  it('an older Ollama that lists no capabilities, or a failed show, still offers the chat', async () => {
    render(<ChatWithModel model="old" label="Chat now" className="btn" />);
    await (await main.next('ollama.show')).answer(show());
    expect(screen.getByRole('link', { name: 'Chat now' })).toBeTruthy();
    cleanup();
    render(<ChatWithModel model="gone" label="Chat now" className="btn" />);
    await (await main.next('ollama.show')).fail({ code: 'not_found', message: 'model "gone" not found' });
    expect(screen.getByRole('link', { name: 'Chat now' })).toBeTruthy();
  });
});
