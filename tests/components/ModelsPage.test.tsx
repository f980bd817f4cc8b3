// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalModel } from '@shared/contract/ollama';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ModelsPage } = await import('../../renderer/src/pages/models/ModelsPage');
const { usePulls } = await import('../../renderer/src/store/pulls');
const { useStatus } = await import('../../renderer/src/store/status');
const { StatusBar } = await import('../../renderer/src/app/StatusBar');
const { useRoute } = await import('../../renderer/src/store/route');

const local = (name: string, size = 2_000_000_000): LocalModel => ({
  name,
  model: name,
  modified_at: '2026-11-20T10:00:00.000Z',
  size,
  digest: `sha256:${name.length}`,
  details: { family: 'llama', parameter_size: '3.2B', quantization_level: 'Q4_K_M' } as LocalModel['details'],
});
const down = { code: 'unavailable' as const, message: 'Ollama is not running at http://127.0.0.1:11434.' };
const layer = 'sha256:6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa';
const job = (model: string) => screen.getAllByTestId('job').find((j) => j.dataset.model === model)!;
const rows = () =>
  within(screen.getByTestId('models-table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.dataset.model);

async function pullFromForm(name: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Pull a model' }));
  await userEvent.type(screen.getByLabelText('Model'), name);
  await userEvent.click(within(screen.getByTestId('pull-form')).getByRole('button', { name: 'Pull' }));
}

beforeEach(() => {
  main.reset();
  main.answer('ollama.status', () => ({ host: 'http://127.0.0.1:11434', reachable: false, error: down }));
  usePulls.setState({ jobs: [], generation: 0 });
  useStatus.setState({ ollama: undefined, checking: false });
});
afterEach(cleanup);

describe('Local models page', () => {
  it('Ollama down: the error with Try again, the status bar told; the list comes back when Ollama answers', async () => {
    render(<ModelsPage />);
    expect(screen.getByText('Asking Ollama for its models…')).toBeTruthy();
    await (await main.next('ollama.list')).fail(down);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe('Ollama is not running');
    expect(alert.textContent).toMatch(/Run ollama serve in a terminal/);
    expect(
      within(alert)
        .getByRole('link', { name: /Download Ollama/ })
        .getAttribute('href'),
    ).toBe('https://ollama.com/download');
    expect(screen.getByText('The list comes back on its own when Ollama answers again.')).toBeTruthy();
    await vi.waitFor(() => expect(useStatus.getState().ollama?.reachable).toBe(false));
    // The status bar says so too, with the installer beside it.
    render(<StatusBar />);
    const bar = await screen.findByTestId('status-ollama-download');
    expect(bar.getAttribute('href')).toBe('https://ollama.com/download');

    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await (await main.next('ollama.list')).fail(down);
    expect(screen.getByRole('alert')).toBeTruthy();

    // The status bar sees Ollama answer: the page asks at once, without waiting for its back-off.
    useStatus.setState({ ollama: { host: 'http://127.0.0.1:11434', reachable: true } });
    await (await main.next('ollama.list')).answer({ models: [local('llama3.2'), local('qwen3:8b', 5e9)] });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rows()).toEqual(['llama3.2', 'qwen3:8b']);
  });

  it('each row has Chat, an embedding model says why not; running models say when they unload', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [local('llama3.2'), local('nomic-embed-text', 3e8)] });
    const show = (model: string) =>
      vi.waitFor(() => {
        const c = main.waiting('ollama.show').find((x) => x.input.model === model);
        if (!c) throw new Error(`no ollama.show for ${model} yet`);
        return c;
      });
    const shown = (capabilities: string[]) => ({ name: '', modelfile: '', details: {}, model_info: {}, capabilities });
    await (await show('nomic-embed-text')).answer(shown(['embedding']));
    await (await show('llama3.2')).answer(shown(['completion', 'tools']));
    const row = (name: string) => screen.getByTestId('models-table').querySelector(`tr[data-model="${name}"]`)!;
    const chat = within(row('llama3.2') as HTMLElement).getByRole('link', { name: 'Chat with llama3.2' });
    expect(chat.getAttribute('href')).toBe('#/chat/new/ollama/llama3.2');
    expect(within(row('nomic-embed-text') as HTMLElement).queryByRole('link', { name: /Chat/ })).toBeNull();
    expect(within(row('nomic-embed-text') as HTMLElement).getByTestId('no-chat').textContent).toBe(
      'No chat (embeddings)',
    );

    const running = (name: string, secs: number) => ({
      ...local(name),
      size_vram: 0,
      expires_at: new Date(Date.now() + secs * 1000).toISOString(),
    });
    await (
      await main.next('ollama.ps')
    ).answer({ models: [running('llama3.2', 4 * 60 + 10), running('qwen3:8b', 3700), running('phi4', 1e10)] });
    const cells = within(screen.getByTestId('running'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.lastElementChild!.textContent);
    expect(cells).toEqual(['unloads in 4 min', 'unloads in 1 h', 'kept loaded']);
  });

  it('no models: suggestions that start a pull', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [] });
    expect(screen.getByText('Pull your first model')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /gemma3:1b/ }));
    expect((await main.stream('ollama.pull')).input).toEqual({ model: 'gemma3:1b' });
  });

  it('a pull shows each layer’s progress; Cancel stops it and offers to pull again', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [local('llama3.2')] });
    await pullFromForm('qwen3:8b');
    expect(screen.queryByTestId('pull-form')).toBeNull();
    const pull = await main.stream('ollama.pull');
    expect(pull.input).toEqual({ model: 'qwen3:8b' });
    expect(job('qwen3:8b').dataset.state).toBe('running');

    await pull.events({ status: 'pulling manifest' });
    expect(within(job('qwen3:8b')).getByTestId('job-status').textContent).toBe('pulling manifest');
    await pull.events({ status: 'pulling 6a0746a1ec1a', digest: layer, total: 4_000_000, completed: 1_000_000 });
    const bar = within(job('qwen3:8b')).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(job('qwen3:8b').textContent).toMatch(/1\.0 MB \/ 4\.0 MB · 25%/);
    await pull.events({ status: 'pulling 6a0746a1ec1a', digest: layer, total: 4_000_000, completed: 3_000_000 });
    expect(within(job('qwen3:8b')).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('75');

    await userEvent.click(within(job('qwen3:8b')).getByRole('button', { name: 'Cancel' }));
    expect(pull.cancelled).toBe(true);
    await vi.waitFor(() => expect(job('qwen3:8b').dataset.state).toBe('cancelled'));
    expect(job('qwen3:8b').textContent).toMatch(/resumes where it stopped/);
    expect(within(job('qwen3:8b')).queryByRole('progressbar')).toBeNull();

    await userEvent.click(within(job('qwen3:8b')).getByRole('button', { name: 'Pull again' }));
    const again = await main.stream('ollama.pull');
    expect(again).not.toBe(pull);
    expect(again.input).toEqual({ model: 'qwen3:8b' });
  });

  it('a finished pull offers a chat and reloads the list; a failed one says why', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [local('llama3.2')] });
    await pullFromForm('qwen3:8b');
    const ok = await main.stream('ollama.pull');
    await ok.end({ status: 'success' });
    expect(job('qwen3:8b').dataset.state).toBe('success');
    expect(within(job('qwen3:8b')).getByRole('link', { name: 'Chat with this model' }).getAttribute('href')).toBe(
      '#/chat/new/ollama/qwen3%3A8b',
    );
    await (await main.next('ollama.list')).answer({ models: [local('llama3.2'), local('qwen3:8b')] });
    expect(rows()).toContain('qwen3:8b');

    await pullFromForm('nope:latest');
    await (
      await main.stream('ollama.pull')
    ).fail({ code: 'not_found', message: 'pull model manifest: file does not exist', status: 404 });
    expect(within(job('nope:latest')).getByRole('alert').textContent).toBe(
      'pull model manifest: file does not exist (HTTP 404)',
    );
  });

  it('Ollama down: "Pull a model" is off and says why; a pull that fails so says why in short, not a bare "failed"', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).fail(down);
    const button = screen.getByRole('button', { name: 'Pull a model' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe('pull-off');
    expect(screen.getByTestId('pull-off').textContent).toBe('Ollama is not running: start it to pull a model.');
    // The code is not words: no stray "unavailable" under the message.
    expect(document.body.textContent).not.toMatch(/unavailable/);

    // A pull started elsewhere (the catalogue's "Run locally") while Ollama is down.
    usePulls.getState().pull('qwen3:8b');
    await (await main.stream('ollama.pull')).fail(down);
    await vi.waitFor(() => expect(job('qwen3:8b').dataset.state).toBe('error'));
    expect(within(job('qwen3:8b')).getByRole('alert').textContent).toBe(
      'Could not pull: Ollama is not running (see below).',
    );
    expect(screen.getAllByText(down.message)).toHaveLength(1);
  });

  it('a pull form opened by its address while Ollama is down keeps Pull off, saying why', async () => {
    window.location.hash = '#/models/pull/llama3.2';
    useRoute.setState({ page: 'models', params: ['pull', 'llama3.2'] });
    try {
      render(<ModelsPage />);
      await (await main.next('ollama.list')).fail(down);
      const form = screen.getByTestId('pull-form');
      expect((within(form).getByRole('button', { name: 'Pull' }) as HTMLButtonElement).disabled).toBe(true);
      expect(form.textContent).toContain('Ollama is not running: start it to pull a model.');
    } finally {
      useRoute.setState({ page: 'models', params: [] });
    }
  });

  it('at most two transfers run at once; the third waits, and starts when one ends', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [] });
    for (const name of ['a1', 'b2', 'c3']) usePulls.getState().pull(name);
    await main.stream('ollama.pull');
    expect(main.opened('ollama.pull').map((s) => s.input.model)).toEqual(['a1', 'b2']);
    expect(job('c3').dataset.state).toBe('queued');
    expect(within(job('c3')).getByTestId('job-status').textContent).toMatch(/at most two transfers/);
    await userEvent.click(within(job('a1')).getByRole('button', { name: 'Cancel' }));
    expect(main.opened('ollama.pull')[0].cancelled).toBe(true);
    await vi.waitFor(() => expect(job('c3').dataset.state).toBe('running'));
    expect(main.opened('ollama.pull').map((s) => s.input.model)).toEqual(['a1', 'b2', 'c3']);
  });

  it('Push asks first, saying what is published where; Cancel sends nothing, Publish starts the push', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [local('me/llama3.2:latest')] });
    await userEvent.click(screen.getByRole('button', { name: 'me/llama3.2:latest' }));
    await userEvent.click(within(screen.getByTestId('details')).getByRole('button', { name: 'Push…' }));
    const dialog = screen.getByRole('dialog', { name: 'Publish me/llama3.2:latest?' });
    expect(dialog.textContent).toContain('Publish me/llama3.2:latest to ollama.com as me/llama3.2:latest?');
    expect(dialog.textContent).toMatch(/Anyone can pull it/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: /Publish/ })).toBeNull();
    expect(main.opened('ollama.push')).toEqual([]);

    await userEvent.click(within(screen.getByTestId('details')).getByRole('button', { name: 'Push…' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Publish me/llama3.2:latest?' })).getByRole('button', {
        name: 'Publish',
      }),
    );
    expect((await main.stream('ollama.push')).input).toEqual({ model: 'me/llama3.2:latest' });
    expect(job('me/llama3.2:latest').dataset.state).toBe('running');
  });

  it('Push of a name without the user’s namespace is refused and points to Copy / rename', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [local('llama3.2:latest')] });
    await userEvent.click(screen.getByRole('button', { name: 'llama3.2:latest' }));
    await userEvent.click(within(screen.getByTestId('details')).getByRole('button', { name: 'Push…' }));
    const dialog = screen.getByRole('dialog', { name: 'Push llama3.2:latest' });
    expect(dialog.textContent).toContain('Copy it as <your-ollama-user>/llama3.2:latest first');
    expect(within(dialog).queryByRole('button', { name: 'Publish' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy / rename…' }));
    expect(screen.getByRole('dialog', { name: 'Copy llama3.2:latest' })).toBeTruthy();
    expect(main.opened('ollama.push')).toEqual([]);
  });

  it('a name Ollama would refuse is caught in the form', async () => {
    render(<ModelsPage />);
    await (await main.next('ollama.list')).answer({ models: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Pull a model' }));
    await userEvent.type(screen.getByLabelText('Model'), 'bad name!');
    const form = screen.getByTestId('pull-form');
    expect(screen.getByLabelText('Model').getAttribute('aria-invalid')).toBe('true');
    expect((within(form).getByRole('button', { name: 'Pull' }) as HTMLButtonElement).disabled).toBe(true);
    expect(usePulls.getState().jobs).toEqual([]);
  });
});
