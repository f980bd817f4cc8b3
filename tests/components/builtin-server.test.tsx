// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldMain as main } from '../helpers/held-main';
import { server } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ServerCard } = await import('../../renderer/src/pages/models/builtin/ServerCard');

const KEY = 'sk-local-0123456789abcdef';

beforeEach(() => main.reset());
afterEach(cleanup);

describe('the built-in engine: local server card', () => {
  it('off by default; a key is saved (only its last four shown), the switch turns it on, the URL and a curl show', async () => {
    render(<ServerCard />);
    await (await main.next('local.server.status')).answer(server());
    const sw = screen.getByRole('switch', { name: 'Local server' });
    expect(sw.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('server-state').textContent).toMatch(/^Off\./);

    const key = screen.getByLabelText('API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    await userEvent.type(key, 'short');
    expect(screen.getByText('Use at least 16 characters.')).toBeTruthy();
    await userEvent.clear(key);
    await userEvent.type(key, `${KEY}{Enter}`);
    const save = await main.next('local.server.set');
    expect(save.input).toEqual({ key: KEY });
    await save.answer(server({ keySet: true, last4: 'cdef', keySource: 'stored' }));
    expect(screen.getByTestId('server-key').textContent).toBe('Set, ending in …cdef');
    expect(screen.queryByLabelText('API key')).toBeNull();

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
      }),
    );
    expect(screen.getByRole('switch', { name: 'Local server' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('server-url').textContent).toBe('http://127.0.0.1:11435/v1');
    const curl = screen.getByTestId('server-curl').textContent!;
    expect(curl).toBe('curl http://127.0.0.1:11435/v1/models -H "Authorization: Bearer $HUBDESK_LOCAL_SERVER_KEY"');
    expect(document.body.textContent).not.toContain(KEY);

    await userEvent.click(screen.getByRole('button', { name: 'Forget key' }));
    expect((await main.next('local.server.set')).input).toEqual({ key: null });
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
