// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalModels } from '@shared/contract/local-models';
import { appSetups } from '../../electron/main/services/snippets/app-setups';
import { heldMain as main } from '../helpers/held-main';
import { gguf, server } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
// Monaco does not run in jsdom: the pane is a textarea with the same props (value in, edits out).
vi.mock('../../renderer/src/features/snippets/MonacoPane', () => ({
  default: (p: { value: string; label: string; onChange(v: string): void }) => (
    <textarea aria-label={p.label} value={p.value} onChange={(e) => p.onChange(e.target.value)} />
  ),
}));
const { ServerCard } = await import('../../renderer/src/pages/models/builtin/ServerCard');

const KEY = 'sk-local-0123456789abcdef';
const running = server({
  enabled: true,
  running: true,
  url: 'http://127.0.0.1:11435/v1',
  keySet: true,
  last4: KEY.slice(-4),
  keySource: 'stored',
});
const tiny = gguf();
const coder = gguf({
  id: 'org/coder-GGUF/coder-Q8_0.gguf',
  name: 'coder-Q8_0',
  title: 'Coder',
  repo: 'org/coder-GGUF',
  quant: 'Q8_0',
});
const library = (models: LocalModels['models']): LocalModels => ({ models, folders: [] });
/** What main fills for a model: the real generator, on the card's server. */
const filled = (m = tiny, status = running) => appSetups(m, undefined, status);

beforeEach(() => main.reset());
afterEach(cleanup);

/** The card, with the server running, and its "Use from another app" dialog open on `models`. */
async function openSetups(models: LocalModels['models']) {
  const user = userEvent.setup();
  render(<ServerCard models={models} />);
  await (await main.next('local.server.status')).answer(running);
  await user.click(screen.getByRole('button', { name: 'Show setups…' }));
  const dialog = screen.getByRole('dialog', { name: 'Use from another app' });
  expect(within(dialog).getByRole('status').textContent).toMatch(/Listing the models on disk/);
  await (await main.next('local.models')).answer(library(models));
  return { user, dialog };
}

describe('the server card: Use from another app', () => {
  it('offers the chat models only; each app’s setup is filled for the chosen one, with its steps, Copy and Save', async () => {
    const embedder = gguf({ id: 'org/emb-GGUF/emb.gguf', name: 'emb', embedding: true });
    const broken = gguf({ id: 'org/bad/bad.gguf', name: 'bad', problem: 'truncated' });
    const { user, dialog } = await openSetups([tiny, embedder, broken, coder]);
    const picker = within(dialog).getByLabelText<HTMLSelectElement>('Model');
    expect([...picker.options].map((o) => o.textContent)).toEqual(['tiny-Q4_K_M · Q4_K_M', 'Coder · Q8_0']);

    const first = await main.next('local.server.setups');
    expect(first.input).toEqual({ model: tiny.id });
    expect(within(dialog).getByText('Filling the setups…')).toBeTruthy();
    await first.answer(filled());
    expect(within(dialog).getByTestId('setups-facts').textContent).toMatch(
      /For tiny-Q4_K_M at http:\/\/127\.0\.0\.1:11435\/v1, 512 tokens of context \(as the server loads it\)\. .*HUBDESK_LOCAL_SERVER_KEY/,
    );
    expect(within(dialog).queryByTestId('setups-off')).toBeNull();

    const apps = within(dialog).getByRole('tablist', { name: 'App' });
    expect(
      within(apps)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toContain('Claude Code');
    const python = within(dialog).getByLabelText<HTMLTextAreaElement>('OpenAI SDK (Python) setup');
    expect(python.value).toContain('base_url="http://127.0.0.1:11435/v1"');
    expect(within(dialog).getByTestId('install-line').textContent).toBe('pip install openai');

    await user.click(within(apps).getByRole('tab', { name: 'Continue' }));
    expect(within(apps).getByRole('tab', { name: 'Continue' }).getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getByTestId('setup-steps').textContent).toMatch(/~\/\.continue\/\.env/);
    const yaml = within(dialog).getByLabelText<HTMLTextAreaElement>('Continue setup');
    expect(yaml.value).toContain(`model: "${tiny.id}"`);
    expect(yaml.value).toContain('contextLength: 512');

    await user.click(within(dialog).getByTestId('copy-snippet'));
    expect(await navigator.clipboard.readText()).toBe(yaml.value);
    expect(within(dialog).getByTestId('setups-toast').textContent).toBe('Continue setup copied to the clipboard');

    // Save goes through main's save dialog under the file name the app reads; the renderer never picks a path.
    await user.click(within(dialog).getByTestId('save-snippet'));
    const save = await main.next('snippets.save');
    expect(save.input).toEqual({ fileName: 'config.yaml', content: yaml.value });
    await save.answer({ saved: true, path: '/home/me/.continue/config.yaml' });
    expect(within(dialog).getByTestId('setups-toast').textContent).toBe('Saved to /home/me/.continue/config.yaml');

    // Another model: its own setups, asked for anew.
    await user.selectOptions(picker, coder.id);
    const second = await main.next('local.server.setups');
    expect(second.input).toEqual({ model: coder.id });
    await second.answer(filled(coder));
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('OpenAI SDK (Python) setup').value).toContain(coder.id);
    expect(document.body.textContent).not.toContain(KEY);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('no chat model on disk: says how to get one, and asks for no setups', async () => {
    const { dialog } = await openSetups([gguf({ embedding: true })]);
    expect(within(dialog).getByRole('heading', { name: 'No chat model on disk' })).toBeTruthy();
    expect(within(dialog).getByTestId('setups-empty').textContent).toMatch(/Download a GGUF chat model/);
    expect(main.waiting('local.server.setups')).toEqual([]);
  });

  it('a server that is off says so; a refusal shows main’s message with Try again', async () => {
    const { user, dialog } = await openSetups([tiny]);
    await (await main.next('local.server.setups')).fail({ code: 'not_found', message: 'No local model "x".' });
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Could not fill the setups.*No local model "x"\./);
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await (await main.next('local.server.setups')).answer(filled(tiny, server()));
    expect(within(dialog).getByTestId('setups-off').textContent).toMatch(/The local server is off/);
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('OpenAI SDK (Python) setup').value).toContain(tiny.id);
  });
});
