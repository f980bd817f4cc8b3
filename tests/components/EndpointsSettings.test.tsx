// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoctorReport, Endpoint } from '@shared/contract/endpoints';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { EndpointsSettings } = await import('../../renderer/src/pages/settings/EndpointsSettings');
const { useEndpoints } = await import('../../renderer/src/store/endpoints');

const KEY = 'sk-lm-studio-secret-4242';
const endpoint = (patch: Partial<Endpoint> = {}): Endpoint => ({
  id: 'e_box',
  name: 'my box',
  preset: 'lmstudio',
  baseUrl: 'http://192.168.1.20:1234/v1',
  hasKey: false,
  source: 'user',
  ...patch,
});
const refused: DoctorReport = {
  ok: false,
  baseUrl: 'http://192.168.1.20:1234/v1',
  problem: { code: 'unauthorized', message: 'The server refused the key (401): check the API key set in LM Studio.' },
  checks: [
    { name: 'reach', ok: true, detail: 'answered in 12 ms' },
    { name: 'models', ok: false, detail: '401 invalid_api_key' },
  ],
  elapsedMs: 140,
};
const works: DoctorReport = {
  ok: true,
  baseUrl: 'http://192.168.1.20:1234/v1',
  checks: [
    { name: 'reach', ok: true, detail: 'answered in 3 ms' },
    { name: 'streaming', ok: true, detail: 'tokens arrive as they are written' },
    { name: 'tools', ok: false, detail: 'the model answered without calling the tool' },
    { name: 'reasoning', ok: false, unseen: true, detail: 'Not seen in a one-token reply.' },
  ],
  models: 1,
  elapsedMs: 420,
};

async function shown(endpoints: Endpoint[]) {
  render(<EndpointsSettings />);
  expect(screen.getByText('Reading endpoints…')).toBeTruthy();
  await (await main.next('endpoints.list')).answer({ endpoints });
}

beforeEach(() => {
  main.reset();
  useEndpoints.setState({ list: undefined, error: undefined, listing: false });
});
afterEach(cleanup);

describe('Settings → Endpoints', () => {
  it('none yet: says what can be added; a list main could not read says so with Try again', async () => {
    render(<EndpointsSettings />);
    await (await main.next('endpoints.list')).fail({ code: 'internal', message: 'Could not read endpoints.json.' });
    expect(screen.getByRole('alert').textContent).toMatch(/Could not read endpoints.json/);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await (await main.next('endpoints.list')).answer({ endpoints: [] });
    expect(screen.getByTestId('endpoints-empty').textContent).toBe(
      'No endpoints yet: add llama.cpp, LM Studio, vLLM or any OpenAI-compatible server.',
    );
  });

  it('adds one from a preset: the usual address filled in, the doctor’s report shown, the key never shown', async () => {
    await shown([]);
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = screen.getByRole('form', { name: 'Add endpoint' });
    // The form opens on its first field.
    expect(document.activeElement).toBe(within(form).getByLabelText('Server'));
    await userEvent.selectOptions(within(form).getByLabelText('Server'), 'lmstudio');
    expect((within(form).getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:1234');
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('LM Studio');
    // A name or address the user typed is theirs: another preset does not overwrite it.
    await userEvent.clear(within(form).getByLabelText('Name'));
    await userEvent.type(within(form).getByLabelText('Name'), 'my box');
    await userEvent.clear(within(form).getByLabelText('Base URL'));
    await userEvent.type(within(form).getByLabelText('Base URL'), 'http://192.168.1.20:1234');
    await userEvent.selectOptions(within(form).getByLabelText('Server'), 'vllm');
    await userEvent.selectOptions(within(form).getByLabelText('Server'), 'lmstudio');
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('my box');
    const key = within(form).getByLabelText('API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    await userEvent.type(key, KEY);
    expect(screen.getByText(/sent only to http:\/\/192\.168\.1\.20:1234\./)).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const save = await main.next('endpoints.save');
    expect(save.input).toEqual({
      name: 'my box',
      preset: 'lmstudio',
      baseUrl: 'http://192.168.1.20:1234',
      apiKey: KEY,
    });
    expect(within(form).getByRole('button', { name: 'Checking the server…' })).toBeTruthy();
    await save.answer({
      endpoint: endpoint({ hasKey: true, keyOrigin: 'http://192.168.1.20:1234' }),
      report: refused,
    });

    const row = screen.getByTestId('endpoint-e_box');
    expect(within(row).getByRole('heading', { name: 'my box' })).toBeTruthy();
    expect(row.textContent).toMatch(/key set goes to http:\/\/192\.168\.1\.20:1234 only/);
    const report = within(row).getByTestId('doctor-report');
    expect(within(report).getByRole('alert').textContent).toBe(
      'The server refused the key (401): check the API key set in LM Studio.',
    );
    const checks = within(report)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(checks).toEqual(['✓works: Reachable answered in 12 ms', '✗fails: Model list 401 invalid_api_key']);
    expect(report.textContent).toMatch(/Requests go to http:\/\/192\.168\.1\.20:1234\/v1/);
    // Nowhere on the page, in no field.
    expect(document.body.innerHTML).not.toContain(KEY);
    expect(screen.getByRole('button', { name: 'Add endpoint' })).toBe(document.activeElement);
  });

  it('an address main refuses keeps the form with its message', async () => {
    await shown([]);
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await (
      await main.next('endpoints.save')
    ).fail({ code: 'invalid_input', message: 'baseUrl: must start with http:// or https:// and a host' });
    expect(screen.getByRole('alert').textContent).toMatch(/must start with http:\/\//);
    expect(screen.getByRole('form', { name: 'Add endpoint' })).toBeTruthy();
  });

  it('Test runs the doctor again and shows what works and what does not', async () => {
    await shown([endpoint()]);
    await userEvent.click(screen.getByRole('button', { name: 'Test' }));
    const test = await main.next('endpoints.test');
    expect(test.input).toEqual({ id: 'e_box' });
    expect(screen.getByRole('button', { name: 'Testing…' })).toBeTruthy();
    await test.answer(works);
    const report = screen.getByTestId('doctor-report');
    expect(within(report).getByRole('status').textContent).toBe('Works · 1 model');
    expect(report.textContent).toMatch(/✗fails: Tool calls the model answered without calling the tool/);
    // Not seen is not a failure: its own mark and words, not the red cross.
    const reasoning = within(report).getByText('Reasoning').closest('li')!;
    expect(reasoning.className).toBe('check-unseen');
    expect(reasoning.textContent).toBe('–not seen: Reasoning Not seen in a one-token reply.');
  });

  it('an endpoint from the environment is read-only: Test, but no Edit, Remove or Remove key', async () => {
    await shown([endpoint({ source: 'env', hasKey: true, keyOrigin: 'http://192.168.1.20:1234' })]);
    const row = screen.getByTestId('endpoint-e_box');
    expect(row.textContent).toMatch(/from HUBDESK_ENDPOINTS/);
    expect(row.textContent).toMatch(/Set in the environment when HubDesk started: change it there/);
    expect(within(row).getByRole('button', { name: 'Test' })).toBeTruthy();
    for (const name of ['Edit', 'Remove…', 'Remove key'])
      expect(within(row).queryByRole('button', { name })).toBeNull();
  });

  it('Remove asks first; Keep it keeps it, Remove removes it', async () => {
    await shown([endpoint(), endpoint({ id: 'e_gpu', name: 'GPU box', preset: 'vllm' })]);
    const row = screen.getByTestId('endpoint-e_box');
    await userEvent.click(within(row).getByRole('button', { name: 'Remove…' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Keep it' }));
    expect(main.waiting('endpoints.remove')).toHaveLength(0);

    await userEvent.click(within(row).getByRole('button', { name: 'Remove…' }));
    const confirm = within(row).getByRole('group', { name: 'Remove my box?' });
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Remove' }));
    await userEvent.keyboard('{Enter}');
    const remove = await main.next('endpoints.remove');
    expect(remove.input).toEqual({ id: 'e_box' });
    await remove.answer({ removed: true });
    expect(screen.queryByTestId('endpoint-e_box')).toBeNull();
    expect(screen.getByTestId('endpoint-e_gpu')).toBeTruthy();
  });

  it('Remove key saves the endpoint without its key; editing to another origin says the key is dropped', async () => {
    await shown([endpoint({ hasKey: true, keyOrigin: 'http://192.168.1.20:1234' })]);
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit my box' });
    expect((within(form).getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(within(form).getByLabelText('API key').getAttribute('placeholder')).toBe('Set: type to replace');
    await userEvent.clear(within(form).getByLabelText('Base URL'));
    await userEvent.type(within(form).getByLabelText('Base URL'), 'http://192.168.1.30:1234');
    expect(form.textContent).toMatch(
      /The stored key goes to http:\/\/192\.168\.1\.20:1234 only: with this new address it is dropped/,
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Remove key' }));
    const save = await main.next('endpoints.save');
    expect(save.input).toEqual({
      id: 'e_box',
      name: 'my box',
      preset: 'lmstudio',
      baseUrl: 'http://192.168.1.20:1234/v1',
      apiKey: null,
    });
    await save.answer({ endpoint: endpoint(), report: works });
    expect(screen.getByTestId('endpoint-e_box').textContent).toMatch(/no key/);
    expect(screen.queryByRole('button', { name: 'Remove key' })).toBeNull();
  });
});
