// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldMain as main } from '../helpers/held-main';
import { logEntry, server } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { RequestLog } = await import('../../renderer/src/pages/models/builtin/RequestLog');
const { ServerCard } = await import('../../renderer/src/pages/models/builtin/ServerCard');

beforeEach(() => main.reset());
afterEach(cleanup);

describe('the local server card: request log', () => {
  it('empty at first; rows arrive live, newest first, errors in words; Clear asks main and empties it', async () => {
    const onKeep = vi.fn();
    render(<RequestLog keepBodies={false} onKeepBodies={onKeep} busy={false} />);
    const watch = await main.stream('local.server.log.watch');
    await watch.events({ entries: [] });
    expect(screen.getByTestId('request-log-empty').textContent).toMatch(/^No requests yet — /);
    expect(screen.getByRole('button', { name: 'Clear' })).toHaveProperty('disabled', true);

    await watch.events({
      entries: [
        logEntry({
          id: 'r3',
          method: 'GET',
          path: '/v1/nothing',
          status: 404,
          client: 'curl/8',
          model: undefined,
          promptTokens: undefined,
          completionTokens: undefined,
          tokensPerSecond: undefined,
          error: 'No route GET /v1/nothing: this server answers /v1/models, …',
        }),
        logEntry({
          id: 'r2',
          status: 401,
          client: 'python-httpx',
          error: 'Missing or wrong API key.',
          model: undefined,
        }),
        logEntry({ id: 'r1' }),
      ],
    });
    const rows = screen.getAllByTestId('request-row');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['404', '401', '200']);
    expect(rows[0]!.className).toContain('failed');
    expect(within(rows[0]!).getByTestId('request-error').textContent).toMatch(/^No route GET \/v1\/nothing/);
    expect(within(rows[1]!).getByTestId('request-error').textContent).toBe('Missing or wrong API key.');
    expect(rows[2]!.className).not.toContain('failed');
    expect(rows[2]!.textContent).toContain('POST /v1/chat/completions');
    expect(rows[2]!.textContent).toContain('OpenAI/JS 6.x · tiny-Q4_K_M · 12 → 30 tokens · 48.5 tok/s');
    expect(within(rows[2]!).queryByTestId('request-error')).toBeNull();

    // A request still being answered says so.
    await watch.events({ entries: [logEntry({ id: 'r4', status: undefined }), logEntry({ id: 'r1' })] });
    expect(screen.getAllByTestId('request-status')[0]!.textContent).toBe('answering…');

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await (await main.next('local.server.log.clear')).answer({ cleared: true });
    await watch.events({ entries: [] });
    expect(screen.getByTestId('request-log-empty')).toBeTruthy();
  });

  it('the keep-bodies switch is labelled, says what it keeps, and asks for the change', async () => {
    const onKeep = vi.fn();
    const { rerender } = render(<RequestLog keepBodies={false} onKeepBodies={onKeep} busy={false} />);
    const sw = screen.getByRole('switch', { name: 'Keep request bodies' });
    expect(sw.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText(/never what was asked or answered/)).toBeTruthy();
    sw.focus();
    await userEvent.keyboard(' ');
    expect(onKeep).toHaveBeenCalledWith(true);
    rerender(<RequestLog keepBodies onKeepBodies={onKeep} busy={false} />);
    expect(screen.getByText(/up to 64 KB, with the key removed/)).toBeTruthy();
  });

  it('a kept row shows its body and reply when opened; a lost watch says so', async () => {
    render(<RequestLog keepBodies onKeepBodies={() => {}} busy={false} />);
    const watch = await main.stream('local.server.log.watch');
    await watch.events({ entries: [logEntry({ kept: true })] });
    await userEvent.click(screen.getByText('POST /v1/chat/completions'));
    const ask = await main.next('local.server.log.entry');
    expect(ask.input).toEqual({ id: 'r1' });
    await ask.answer({ request: '{"model":"m","messages":[]}', reply: 'Hello from HubDesk.' });
    expect(screen.getByLabelText('Request body').textContent).toBe('{\n  "model": "m",\n  "messages": []\n}');
    expect(screen.getByLabelText('Reply').textContent).toBe('Hello from HubDesk.');
    await watch.fail({ code: 'unavailable', message: 'connection lost' });
    expect(screen.getByRole('alert').textContent).toMatch(/Lost the request log \(connection lost\)/);
  });
});

describe('the local server card: network and origins', () => {
  it('the network switch warns; origins are checked, added normalized and removed', async () => {
    render(<ServerCard />);
    await (await main.next('local.server.status')).answer(server({ keySet: true, last4: 'cdef', keySource: 'stored' }));
    const lan = screen.getByRole('switch', { name: 'Serve on the local network' });
    expect(screen.getByTestId('server-lan-help').textContent).toMatch(
      /^Anyone on your network who has the key can use your models/,
    );
    await userEvent.click(lan);
    const on = await main.next('local.server.set');
    expect(on.input).toEqual({ lan: true });
    await on.answer(
      server({
        keySet: true,
        keySource: 'stored',
        enabled: true,
        running: true,
        lan: true,
        lanUrls: ['http://192.168.1.20:11435/v1'],
      }),
    );
    expect(screen.getByTestId('server-lan-urls').textContent).toBe('http://192.168.1.20:11435/v1');

    const field = screen.getByLabelText('Allowed origins');
    await userEvent.type(field, 'localhost:5173');
    expect(screen.getByText(/^Not an origin: use an origin like http:\/\/localhost:5173/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Allow' })).toHaveProperty('disabled', true);
    await userEvent.clear(field);
    await userEvent.type(field, 'HTTP://LocalHost:5173/{Enter}');
    const add = await main.next('local.server.set');
    expect(add.input).toEqual({ corsOrigins: ['http://localhost:5173'] });
    await add.answer(server({ keySet: true, keySource: 'stored', corsOrigins: ['http://localhost:5173'] }));
    expect(screen.getByTestId('server-origins').textContent).toContain('http://localhost:5173');
    expect((field as HTMLInputElement).value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Remove http://localhost:5173' }));
    expect((await main.next('local.server.set')).input).toEqual({ corsOrigins: [] });
  });
});
