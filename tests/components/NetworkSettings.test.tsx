// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionTest, NetworkStatus } from '@shared/contract/network';
import type { SecretStatus, Settings, SettingsView } from '@shared/contract/settings';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { NetworkSettings } = await import('../../renderer/src/pages/settings/NetworkSettings');
const { useSettings } = await import('../../renderer/src/store/settings');

const proxySecret = (patch: Partial<SecretStatus> = {}): SecretStatus => ({
  name: 'proxy',
  set: false,
  source: 'none',
  persistent: false,
  envVar: 'HUBDESK_PROXY',
  ...patch,
});
const view = (values: Partial<Settings> = {}, secret = proxySecret()) =>
  ({
    values: { hubEndpoint: 'https://huggingface.co', noProxy: '', caFile: '', ...values },
    sources: {},
    secrets: [secret],
  }) as unknown as SettingsView;
const status = (patch: Partial<NetworkStatus> = {}): NetworkStatus => ({
  hub: {
    url: 'https://huggingface.co',
    route: { via: 'proxy', proxy: 'http://proxy.corp:8080', source: 'environment' },
  },
  environment: [
    { name: 'HTTPS_PROXY', value: 'http://proxy.corp:8080' },
    { name: 'NO_PROXY', value: '.corp' },
  ],
  system: false,
  trust: { node: '20.20.2' },
  ...patch,
});
const card = () => screen.getByTestId('network-settings');

async function shown(s: NetworkStatus = status()) {
  render(<NetworkSettings />);
  expect(screen.getByText('Reading the network settings…')).toBeTruthy();
  await (await main.next('network.status')).answer(s);
}

beforeEach(() => {
  main.reset();
  useSettings.setState({ view: view(), error: undefined });
});
afterEach(cleanup);

describe('Settings → Network', () => {
  it('says which proxy the Hub goes through and where it was set, the environment as read, and the trust', async () => {
    await shown(
      status({
        trust: {
          node: '20.20.2',
          envFile: { path: '/etc/corp.pem', count: 2 },
          settingsFile: {
            path: '/home/me/ca.pem',
            error: 'The extra certificates file /home/me/ca.pem does not exist',
          },
        },
      }),
    );
    expect(screen.getByTestId('network-route').textContent).toBe(
      'Through http://proxy.corp:8080 — from the environment (HTTPS_PROXY)',
    );
    const facts = screen.getByTestId('network-proxy-status').textContent;
    expect(facts).toContain('HTTPS_PROXY = http://proxy.corp:8080');
    expect(facts).toContain('NO_PROXY = .corp');
    expect(facts).toContain('the web mode uses the environment');
    const trust = screen.getByTestId('network-trust').textContent;
    expect(trust).toContain('System store: not readable by Node 20.20.2 (needs Node 22.15+; the desktop app reads it)');
    expect(trust).toContain('NODE_EXTRA_CA_CERTS: /etc/corp.pem — 2 certificates');
    expect(trust).toContain('/home/me/ca.pem — The extra certificates file /home/me/ca.pem does not exist');
    expect(screen.queryByRole('checkbox')).toBeNull(); // no switch that turns certificate checks off
  });

  it('direct, bypassed, from the system; a malformed proxy is an alert in main’s words', async () => {
    await shown(
      status({
        hub: { url: 'https://huggingface.co', route: { via: 'direct', why: 'no-proxy' } },
        environment: [],
        system: true,
        trust: { node: '24.1.0', system: 148 },
      }),
    );
    expect(screen.getByTestId('network-route').textContent).toBe('Direct (no proxy set)');
    expect(screen.getByTestId('network-proxy-status').textContent).toContain('No proxy variables set');
    expect(screen.getByTestId('network-proxy-status').textContent).toContain('Followed (PAC included)');
    expect(screen.getByTestId('network-trust').textContent).toContain('System store: 148 certificates');
    cleanup();

    await shown(status({ hub: { url: 'https://huggingface.co', route: { via: 'direct', why: 'bypass' } } }));
    expect(screen.getByTestId('network-route').textContent).toBe('Direct (bypassed)');
    cleanup();

    await shown(
      status({
        hub: { url: 'https://hf.co', route: { via: 'proxy', proxy: 'http://pac.corp:3128', source: 'system' } },
      }),
    );
    expect(screen.getByTestId('network-route').textContent).toBe('Through http://pac.corp:3128 — from the system');
    cleanup();

    const words = 'HTTPS_PROXY names a SOCKS proxy (socks5://x:1): HubDesk speaks to HTTP(S) proxies only.';
    await shown(status({ hub: { url: 'https://huggingface.co', error: words } }));
    expect(within(screen.getByTestId('network-proxy-status')).getByRole('alert').textContent).toBe(words);
  });

  it('a status main could not give says so; Try again asks again', async () => {
    render(<NetworkSettings />);
    await (await main.next('network.status')).fail({ code: 'internal', message: 'The network service is down.' });
    expect(screen.getByRole('alert').textContent).toContain('The network service is down.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await (await main.next('network.status')).answer(status());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('network-route')).toBeTruthy();
  });

  it('the manual proxy goes to main as a secret; main’s refusal shows beside it; saved, the field empties and the status is asked again', async () => {
    await shown();
    const field = screen.getByLabelText('Manual proxy') as HTMLInputElement;
    await userEvent.type(field, 'socks5://x:1{Enter}');
    const refused = await main.next('secrets.set');
    expect(refused.input).toEqual({ name: 'proxy', value: 'socks5://x:1' });
    await refused.fail({ code: 'invalid_input', message: 'The proxy address names a SOCKS proxy (socks5://x:1).' });
    expect(within(screen.getByTestId('manual-proxy')).getByRole('alert').textContent).toMatch(/names a SOCKS proxy/);
    expect(field.value).toBe('socks5://x:1');
    expect(main.waiting('network.status')).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, 'http://alice:s3cr3t@proxy.corp:8080');
    await userEvent.click(within(screen.getByTestId('manual-proxy')).getByRole('button', { name: 'Save' }));
    const saved = await main.next('secrets.set');
    expect(saved.input).toEqual({ name: 'proxy', value: 'http://alice:s3cr3t@proxy.corp:8080' });
    await saved.answer(view({}, proxySecret({ set: true, source: 'session' })));
    expect(field.value).toBe('');
    expect(within(screen.getByTestId('manual-proxy')).queryByRole('alert')).toBeNull();
    const shownProxy = 'http://alice:•••@proxy.corp:8080';
    await (
      await main.next('network.status')
    ).answer(
      status({
        hub: { url: 'https://huggingface.co', route: { via: 'proxy', proxy: shownProxy, source: 'settings' } },
        manual: shownProxy,
      }),
    );
    expect(screen.getByTestId('network-route').textContent).toBe(`Through ${shownProxy} — from Settings`);
    expect(screen.getByTestId('manual-proxy-state').textContent).toContain(`set ${shownProxy} (this session only)`);
    expect(card().textContent).not.toContain('s3cr3t');

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect((await main.next('secrets.clear')).input).toEqual({ name: 'proxy' });
  });

  it('the bypass list saves with Enter, its refusal shown; saved, the status is asked again', async () => {
    await shown();
    const field = screen.getByLabelText('Bypass list');
    await userEvent.type(field, 'bad/entry{Enter}');
    const refused = await main.next('settings.update');
    expect(refused.input).toEqual({ noProxy: 'bad/entry' });
    await refused.fail({ code: 'invalid_input', message: 'Bypass list: host names, domains (.example.com)…' });
    expect(screen.getByRole('alert').textContent).toBe('Bypass list: host names, domains (.example.com)…');

    await userEvent.clear(field);
    await userEvent.type(field, '.corp.example{Enter}');
    await (await main.next('settings.update')).answer(view({ noProxy: '.corp.example' }));
    await (await main.next('network.status')).answer(status());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Test connection: disabled and “Testing…” while main tests, then the verdict, route, certificate and time', async () => {
    await shown();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const held = await main.next('network.test');
    expect(held.input).toEqual({});
    const busy = screen.getByRole('button', { name: 'Testing…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    const ok: ConnectionTest = {
      url: 'https://huggingface.co/',
      route: { via: 'proxy', proxy: 'http://proxy.corp:8080', source: 'environment' },
      ok: true,
      status: 200,
      ms: 84,
      tls: { issuer: 'Corp · Corp Root CA', subject: 'huggingface.co', validTo: '2027-03-01T00:00:00.000Z' },
    };
    await held.answer(ok);
    const result = screen.getByTestId('network-test-result').textContent;
    expect(result).toContain('OK · HTTP 200 · 84 ms');
    expect(result).toContain('https://huggingface.co/ — through http://proxy.corp:8080 (environment)');
    expect(result).toContain('Certificate for huggingface.co, issued by Corp · Corp Root CA, valid until 1 Mar 2027');
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(false);
    // A test reads the certificate files again: the status is asked again.
    await (await main.next('network.status')).answer(status());

    await userEvent.type(screen.getByLabelText('Another address'), 'https://intranet.corp{Enter}');
    const other = await main.next('network.test');
    expect(other.input).toEqual({ url: 'https://intranet.corp' });
    await other.answer({
      url: 'https://intranet.corp/',
      route: { via: 'direct', why: 'bypass' },
      ok: false,
      ms: 12,
      error: { code: 'unavailable', message: 'The certificate for intranet.corp has expired (CERT_HAS_EXPIRED).' },
    } satisfies ConnectionTest);
    const failed = screen.getByTestId('network-test-result').textContent;
    expect(failed).toContain('Failed · 12 ms');
    expect(failed).toContain('https://intranet.corp/ — direct (bypassed)');
    expect(failed).toContain('has expired (CERT_HAS_EXPIRED)');
  });
});
