import type { LocalServerStatus } from '@shared/contract/local-server';
// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import type { SettingsView } from '@shared/contract/settings';
import type { SnippetsResult } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { appSetups } from '../../electron/main/services/snippets/app-setups';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
// Monaco does not run in jsdom: the pane is a textarea with the same props (value in, edits out).
vi.mock('../../renderer/src/features/snippets/MonacoPane', () => ({
  default: (p: { value: string; label: string; onChange(v: string): void }) => (
    <textarea aria-label={p.label} value={p.value} onChange={(e) => p.onChange(e.target.value)} />
  ),
}));
const { default: Workbench } = await import('../../renderer/src/features/snippets/Workbench');
const { useSettings } = await import('../../renderer/src/store/settings');

const model: ModelRecord = {
  id: 'org/chatty',
  tags: ['conversational'],
  pipeline_tag: 'text-generation',
  library_name: 'transformers',
};
/** What main generates: one python snippet whose text names what it was generated for. */
const generated = (content: string): SnippetsResult => ({
  modelId: model.id,
  provider: 'hf-inference',
  providers: [{ id: 'hf-inference' }, { id: 'together', status: 'live' }],
  sections: [
    {
      kind: 'inference',
      snippets: [{ kind: 'inference', language: 'python', client: 'huggingface_hub', content }],
    },
  ],
  deeplinks: [],
});
const pane = () => screen.getByLabelText<HTMLTextAreaElement>('python huggingface_hub snippet');
const toast = () => screen.getByTestId('toast').textContent;
const withToken = (set: boolean) =>
  useSettings.setState({
    view: { values: {}, secrets: [{ name: 'hfToken', set }] } as unknown as SettingsView,
  });

/** Renders the workbench and answers its first generation with `content`. */
async function opened(content = 'first') {
  render(<Workbench model={model} />);
  const first = await main.next('snippets.generate');
  await first.answer(generated(content));
  expect((await screen.findByLabelText<HTMLTextAreaElement>('python huggingface_hub snippet')).value).toBe(content);
  return first;
}

beforeEach(() => {
  main.reset();
  withToken(false);
});
afterEach(cleanup);

describe('Workbench: "Use this model"', () => {
  it('asks for the snippets with the options bar as it is, and again when an option changes', async () => {
    const first = await opened();
    expect(first.input).toMatchObject({ model, options: { provider: 'hf-inference' } });

    await userEvent.click(screen.getByTestId('opt-stream'));
    const streaming = await main.next('snippets.generate');
    expect(streaming.input.options).toEqual({ provider: 'hf-inference', streaming: true });
    await streaming.answer(generated('streaming'));

    await userEvent.selectOptions(screen.getByTestId('opt-provider'), 'together');
    const together = await main.next('snippets.generate');
    expect(together.input.options).toEqual({ provider: 'together', streaming: true });
    await together.answer(generated('together'));
    expect(pane().value).toBe('together');

    // Typed fields are asked once per pause, with the chat message as the library's `messages`.
    await userEvent.type(screen.getByTestId('opt-inputs'), 'Hi there');
    const typed = await main.next('snippets.generate');
    expect(typed.input.options).toMatchObject({ messages: [{ role: 'user', content: 'Hi there' }] });
    expect(main.waiting('snippets.generate')).toHaveLength(1);
  });

  it('an answer to older options that arrives late does not replace the newer one', async () => {
    await opened();
    await userEvent.click(screen.getByTestId('opt-stream'));
    const older = await main.next('snippets.generate');
    await userEvent.click(screen.getByTestId('opt-stream'));
    await vi.waitFor(() => expect(main.waiting('snippets.generate')).toHaveLength(2));
    const newer = main.waiting('snippets.generate')[1];
    expect(newer.input.options).toEqual({ provider: 'hf-inference' });

    // The old text stays on screen, dimmed, while the new one is generated.
    expect(pane().value).toBe('first');
    expect(pane().closest('.sw-body')?.classList.contains('sw-stale')).toBe(true);
    expect(pane().closest('.sw-body')?.getAttribute('aria-busy')).toBe('true');
    await older.answer(generated('older'));
    // The older answer is dropped: still waiting for the newer one.
    expect(pane().value).toBe('first');
    expect(pane().closest('.sw-body')?.getAttribute('aria-busy')).toBe('true');
    await newer.answer(generated('newer'));
    expect(pane().value).toBe('newer');
    expect(pane().closest('.sw-body')?.classList.contains('sw-stale')).toBe(false);

    // The other order: the newest answer first, then one for the options before it.
    await userEvent.click(screen.getByTestId('opt-stream'));
    await userEvent.click(screen.getByTestId('opt-stream'));
    await vi.waitFor(() => expect(main.waiting('snippets.generate')).toHaveLength(2));
    const [before, newest] = main.waiting('snippets.generate');
    await newest.answer(generated('newest'));
    await before.answer(generated('before'));
    expect(pane().value).toBe('newest');
    expect(pane().closest('.sw-body')?.getAttribute('aria-busy')).toBe('false');
  });

  it('"Insert my token" with no token set says so and asks main for nothing', async () => {
    await opened();
    await userEvent.click(screen.getByRole('button', { name: 'Insert my token' }));
    expect(screen.getByTestId('no-token').textContent).toMatch(/No token set/);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByTestId('no-token')).toBeNull();
    expect(main.waiting()).toEqual([]);
  });

  it('with a token set it asks first; confirmed, the snippets carry the token with a warning, Reset removes it', async () => {
    withToken(true);
    await opened('placeholder');
    await userEvent.click(screen.getByRole('button', { name: 'Insert my token' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Insert your token' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(main.waiting()).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Insert my token' }));
    await userEvent.click(screen.getByTestId('confirm-token'));
    const call = await main.next('snippets.withToken');
    expect(call.input).toMatchObject({ model, options: { provider: 'hf-inference' } });
    await call.answer(generated('hf_real_token'));
    expect(pane().value).toBe('hf_real_token');
    expect(screen.getByRole('note').textContent).toMatch(/real Hugging Face token is written/);
    expect(toast()).toMatch(/Your token is now in the snippets/);
    expect(screen.queryByRole('button', { name: 'Insert my token' })).toBeNull();

    await userEvent.click(screen.getByTestId('reset-snippet'));
    expect(pane().value).toBe('placeholder');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('for an address the token is not bound to, it says the snippets read the token from the environment', async () => {
    withToken(true);
    await opened('placeholder');
    await userEvent.click(screen.getByRole('button', { name: 'Insert my token' }));
    await userEvent.click(screen.getByTestId('confirm-token'));
    const why = 'evil.example.net is not one, so this snippet reads the token from the environment.';
    await (
      await main.next('snippets.withToken')
    ).answer({ ...generated('os.environ["API_TOKEN"]'), tokenWithheld: why });
    expect(pane().value).toBe('os.environ["API_TOKEN"]');
    expect(toast()).toBe(why);
  });

  it('an edit is marked and Reset brings the generated text back', async () => {
    await opened('print(1)');
    await userEvent.type(pane(), '\n# mine');
    expect(pane().value).toBe('print(1)\n# mine');
    expect(screen.getByText('edited')).toBeTruthy();
    await userEvent.click(screen.getByTestId('reset-snippet'));
    expect(pane().value).toBe('print(1)');
    expect(screen.queryByText('edited')).toBeNull();
  });

  it('Copy puts the pane text on the clipboard and says so; without a clipboard it says how to copy', async () => {
    const user = userEvent.setup();
    await opened('print(2)');
    await user.click(screen.getByTestId('copy-snippet'));
    expect(await navigator.clipboard.readText()).toBe('print(2)');
    expect(toast()).toBe('Snippet copied to the clipboard');

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(screen.getByTestId('copy-snippet'));
    await vi.waitFor(() => expect(toast()).toMatch(/clipboard is not available/));
  });

  it('Save sends the pane text under a file name for the model; saved, cancelled and refused each end as they should', async () => {
    await opened('print(3)');
    await userEvent.type(pane(), ' # edited');
    await userEvent.click(screen.getByTestId('save-snippet'));
    const cancelled = await main.next('snippets.save');
    expect(cancelled.input).toEqual({ fileName: 'chatty_huggingface_hub.py', content: 'print(3) # edited' });
    await cancelled.answer({ saved: false });
    expect(toast()).toBe('');

    await userEvent.click(screen.getByTestId('save-snippet'));
    await (await main.next('snippets.save')).answer({ saved: true, path: '/home/me/chatty_huggingface_hub.py' });
    expect(toast()).toBe('Saved to /home/me/chatty_huggingface_hub.py');

    await userEvent.click(screen.getByTestId('save-snippet'));
    await (await main.next('snippets.save')).fail({ code: 'forbidden', message: 'The folder is read-only.' });
    expect(toast()).toBe('The folder is read-only.');
  });

  it('language and client tabs pick the snippet the pane shows, with the pane labelled by both', async () => {
    render(<Workbench model={model} />);
    const r = generated('py hub');
    r.sections[0].snippets.push(
      { kind: 'inference', language: 'python', client: 'requests', content: 'py requests' },
      { kind: 'inference', language: 'js', client: 'fetch', content: 'js fetch' },
    );
    await (await main.next('snippets.generate')).answer(r);
    const languages = screen.getByRole('tablist', { name: 'Language' });
    expect(
      within(languages)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Python', 'JavaScript']);
    const clients = screen.getByRole('tablist', { name: 'Client' });
    await userEvent.click(within(clients).getByRole('tab', { name: 'requests' }));
    expect(screen.getByLabelText<HTMLTextAreaElement>('python requests snippet').value).toBe('py requests');
    await userEvent.click(within(languages).getByRole('tab', { name: 'JavaScript' }));
    expect(screen.getByLabelText<HTMLTextAreaElement>('js fetch snippet').value).toBe('js fetch');
    expect(
      within(screen.getByRole('tablist', { name: 'Client' }))
        .getByRole('tab')
        .getAttribute('aria-selected'),
    ).toBe('true');
    const pane = screen.getByRole('tabpanel', { name: /JavaScript/ });
    const selected = (list: string) =>
      within(screen.getByRole('tablist', { name: list })).getByRole('tab', { selected: true }).id;
    expect(pane.getAttribute('aria-labelledby')).toBe(`${selected('Language')} ${selected('Client')}`);
  });

  it('an edited pane keeps its text when the user goes to other tabs and back, until Reset', async () => {
    render(<Workbench model={model} />);
    const r = generated('py hub');
    r.sections[0].snippets.push(
      { kind: 'inference', language: 'python', client: 'requests', content: 'py requests' },
      { kind: 'inference', language: 'js', client: 'fetch', content: 'js fetch' },
      { kind: 'inference', language: 'js', client: 'huggingface.js', content: 'js hub' },
    );
    r.sections.push({
      kind: 'local-server',
      snippets: [{ kind: 'local-server', language: 'sh', client: 'curl', content: 'curl it' }],
    });
    await (await main.next('snippets.generate')).answer(r);
    const tab = (list: string, name: string | RegExp) =>
      userEvent.click(within(screen.getByRole('tablist', { name: list })).getByRole('tab', { name }));
    const requests = () => screen.getByLabelText<HTMLTextAreaElement>('python requests snippet');

    await tab('Client', 'requests');
    await userEvent.type(requests(), ' # mine');
    // Another language, another of its clients, another kind: then back.
    await tab('Language', 'JavaScript');
    await tab('Client', 'huggingface.js');
    expect(screen.getByLabelText<HTMLTextAreaElement>('js huggingface.js snippet').value).toBe('js hub');
    await tab('Snippet kind', /Local server/);
    expect(screen.getByLabelText<HTMLTextAreaElement>('sh curl snippet').value).toBe('curl it');
    await tab('Snippet kind', /Inference/);
    expect(screen.getByLabelText<HTMLTextAreaElement>('js huggingface.js snippet').value).toBe('js hub');
    await tab('Language', 'Python');
    expect(requests().value).toBe('py requests # mine');
    expect(screen.getByText('edited')).toBeTruthy();

    await userEvent.click(screen.getByTestId('reset-snippet'));
    expect(requests().value).toBe('py requests');
  });

  it('a failed generation shows the error with Try again, which asks again', async () => {
    render(<Workbench model={model} />);
    expect(screen.getByText('Generating snippets…')).toBeTruthy();
    await (await main.next('snippets.generate')).fail({ code: 'upstream', message: 'The library threw.' });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/Could not generate snippets/);
    expect(alert.textContent).toMatch(/The library threw\./);
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await (await main.next('snippets.generate')).answer(generated('recovered'));
    expect(pane().value).toBe('recovered');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a GGUF repo has an Other apps tab: the setups for its GGUFs on disk, the quant picked on the page first', async () => {
    const repo: ModelRecord = { id: 'org/tiny-GGUF', tags: ['gguf'], library_name: 'gguf' };
    const local = (quant: string, over: Partial<LocalModel> = {}): LocalModel => ({
      id: `org/tiny-GGUF/tiny-${quant}.gguf`,
      name: `tiny-${quant}`,
      path: `/m/tiny-${quant}.gguf`,
      parts: 1,
      source: 'downloaded',
      folder: '/m',
      repo: 'org/tiny-GGUF',
      quant,
      sizeBytes: 1,
      embedding: false,
      deletable: true,
      plan: { contextSize: 2048, gpuLayers: 0 },
      ...over,
    });
    const user = userEvent.setup();
    render(<Workbench model={repo} quant="Q8_0" />);
    await (await main.next('snippets.generate')).answer({ ...generated('x'), modelId: repo.id });
    await user.click(screen.getByRole('tab', { name: 'Other apps' }));
    expect(screen.getByText('Listing the models on disk…')).toBeTruthy();
    const other = local('Q2_K', { id: 'org/other-GGUF/o.gguf', repo: 'org/other-GGUF' });
    await (
      await main.next('local.models')
    ).answer({ models: [local('Q4_K_M'), other, local('Q8_0'), local('F16', { embedding: true })], folders: [] });
    const picker = screen.getByLabelText<HTMLSelectElement>('Model');
    expect([...picker.options].map((o) => o.value)).toEqual([
      'org/tiny-GGUF/tiny-Q8_0.gguf',
      'org/tiny-GGUF/tiny-Q4_K_M.gguf',
    ]);
    const call = await main.next('local.server.setups');
    expect(call.input).toEqual({ model: 'org/tiny-GGUF/tiny-Q8_0.gguf' });
    const status = {
      enabled: false,
      running: false,
      port: 11435,
      keySet: false,
      keySource: 'none',
      lan: false,
      corsOrigins: [],
      keepBodies: false,
    } satisfies LocalServerStatus;
    await call.answer(appSetups(local('Q8_0'), undefined, status));
    expect(screen.getByLabelText<HTMLTextAreaElement>('OpenAI SDK (Python) setup').value).toContain('tiny-Q8_0.gguf');
    expect(screen.getByTestId('setups-off')).toBeTruthy();
  });

  it('a repo that is not GGUF has no Other apps tab', async () => {
    await opened();
    expect(screen.queryByRole('tab', { name: 'Other apps' })).toBeNull();
  });
});
