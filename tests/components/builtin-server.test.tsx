// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldMain as main } from '../helpers/held-main';
import { gguf, server } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ServerCard } = await import('../../renderer/src/pages/models/builtin/ServerCard');

const KEY = 'sk-local-0123456789abcdef';

beforeEach(() => main.reset());
afterEach(cleanup);

describe('the built-in engine: local server card', () => {
  it('off by default; Generate key starts it, Copy key asks main, the samples read the variable and copy, the model ids show', async () => {
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (t: string) => void writes.push(t) },
    });
    render(<ServerCard models={[gguf()]} />);
    await (await main.next('local.server.status')).answer(server());
    const sw = screen.getByRole('switch', { name: 'Local server' });
    expect(sw.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('server-state').textContent).toMatch(/^Off\./);

    await userEvent.click(screen.getByRole('button', { name: 'Generate key' }));
    const gen = await main.next('local.server.key.generate');
    await gen.answer(server({ keySet: true, last4: 'cdef', keySource: 'stored', keyKept: true }));
    expect(screen.getByTestId('server-key').textContent).toBe('Set, ending in …cdef');
    expect(screen.queryByTestId('server-key-lasts')).toBeNull();

    // Copy key in the web mode: main answers the key once; it goes to the clipboard, never onto the page.
    await userEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    await (await main.next('local.server.key.copy')).answer({ copied: false, key: KEY });
    await screen.findByText('Copied');
    expect(writes).toEqual([KEY]);
    expect(document.body.textContent).not.toContain(KEY);

    await userEvent.click(sw);
    const on = await main.next('local.server.set');
    expect(on.input).toEqual({ enabled: true });
    await on.answer(
      server({
        enabled: true,
        running: true,
        url: 'http://127.0.0.1:11435/v1',
        keySet: true,
        last4: 'cdef',
        keySource: 'stored',
        keyKept: true,
      }),
    );
    expect(screen.getByTestId('server-url').textContent).toBe('http://127.0.0.1:11435/v1');
    expect(screen.getByTestId('sample-env').querySelector('code')!.textContent).toBe(
      "export HUBDESK_LOCAL_SERVER_KEY='paste-the-key-here'",
    );
    const models = screen.getByTestId('sample-models').querySelector('code')!.textContent;
    expect(models).toBe('curl http://127.0.0.1:11435/v1/models -H "Authorization: Bearer $HUBDESK_LOCAL_SERVER_KEY"');
    expect(screen.getByTestId('sample-chat').textContent).toContain(`"model":"${gguf().id}"`);
    expect(screen.getByTestId('server-ids').textContent).toContain(gguf().id);
    // Every sample has its Copy; each copies its own text.
    for (const id of ['sample-env', 'sample-env-ps', 'sample-models', 'sample-chat'])
      expect(
        within(screen.getByTestId(id))
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Copy']);
    await userEvent.click(within(screen.getByTestId('sample-models')).getByRole('button'));
    await waitFor(() => expect(writes.at(-1)).toBe(models));
    await userEvent.click(screen.getByRole('button', { name: `Copy the id of ${gguf().name}` }));
    await waitFor(() => expect(writes.at(-1)).toBe(gguf().id));

    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    await (
      await main.next('local.server.key.generate')
    ).answer(server({ keySet: true, last4: 'wxyz', keySource: 'stored' }));
    expect(screen.getByTestId('server-key').textContent).toBe('Set, ending in …wxyz');
    await userEvent.click(screen.getByRole('button', { name: 'Forget key' }));
    expect((await main.next('local.server.set')).input).toEqual({ key: null });
  });

  it('a typed key is checked and saved; one kept for this run only says so and how to keep one', async () => {
    render(<ServerCard />);
    await (await main.next('local.server.status')).answer(server());
    await userEvent.click(screen.getByRole('button', { name: 'Type my own…' }));
    const key = screen.getByLabelText('Your key') as HTMLInputElement;
    expect(key.type).toBe('password');
    await userEvent.type(key, 'short');
    expect(screen.getByText('Use at least 16 characters.')).toBeTruthy();
    await userEvent.clear(key);
    await userEvent.type(key, `${KEY}{Enter}`);
    const save = await main.next('local.server.set');
    expect(save.input).toEqual({ key: KEY });
    await save.answer(server({ keySet: true, last4: 'cdef', keySource: 'stored', keyKept: false }));
    expect(screen.queryByLabelText('Your key')).toBeNull();
    expect(screen.getByTestId('server-key-lasts').textContent).toMatch(
      /^This key lasts until HubDesk restarts.*start HubDesk with HUBDESK_LOCAL_SERVER_KEY set to it\.$/,
    );
  });

  it('on but not running says plainly why, never "On, not running"', async () => {
    render(<ServerCard />);
    const why = 'Its key was set on the page without a keychain to keep it, so it ended when HubDesk restarted.';
    await (
      await main.next('local.server.status')
    ).answer(server({ enabled: true, error: { code: 'invalid_input', message: why } }));
    expect(screen.getByTestId('server-state').textContent).toBe('Not running.');
    expect(screen.getByTestId('server-error').textContent).toBe(why);
    expect(document.body.textContent).not.toContain('On, not running');
  });

  it('a server that cannot start shows why; a refused change shows main’s message; the port is checked', async () => {
    render(<ServerCard />);
    await (
      await main.next('local.server.status')
    ).answer(
      server({ enabled: true, error: { code: 'unavailable', message: 'Port 11435 is in use: choose another.' } }),
    );
    expect(screen.getByTestId('server-error').textContent).toBe('Port 11435 is in use: choose another.');
    const port = screen.getByLabelText('Port');
    await userEvent.clear(port);
    await userEvent.type(port, '80');
    expect(screen.getByText('Use 1024–65535.')).toBeTruthy();
    await userEvent.clear(port);
    await userEvent.type(port, '11500{Enter}');
    const set = await main.next('local.server.set');
    expect(set.input).toEqual({ port: 11500 });
    await set.fail({ code: 'invalid_input', message: 'Set a key first.' });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Set a key first.');
  });

  it('the status cannot be asked: the error with Try again', async () => {
    render(<ServerCard />);
    await (await main.next('local.server.status')).fail({ code: 'internal', message: 'broken' });
    expect(screen.getByRole('alert').textContent).toMatch(/Could not ask for the server’s state: broken/);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await (await main.next('local.server.status')).answer(server());
    expect(screen.getByRole('switch', { name: 'Local server' })).toBeTruthy();
  });
});
