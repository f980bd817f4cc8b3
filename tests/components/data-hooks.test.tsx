// @vitest-environment jsdom
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HardwareView } from '@shared/contract/hardware';
import type { HubFreshness } from '@shared/contract/hub';
import type { McpServerStatus } from '@shared/contract/mcp';
import type { SettingsView } from '@shared/contract/settings';
import { GiB } from '@shared/fit';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { HardwareSettings } = await import('../../renderer/src/pages/settings/HardwareSettings');
const { TopHubModels } = await import('../../renderer/src/pages/catalogue/TopHubModels');
const { ServerCard } = await import('../../renderer/src/pages/tools/ServerCard');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useFit } = await import('../../renderer/src/hooks/fit');

const settings = (hubAccess: 'online' | 'offline') =>
  ({ values: { hubEndpoint: 'https://huggingface.co', hubAccess }, secrets: [] }) as unknown as SettingsView;
const hardware = (ramTotal: number): HardwareView => {
  const detected = { ramTotal, ramFree: 12 * GiB, gpus: [], unified: false };
  return { detected, effective: detected, probes: [], source: 'detected' };
};
const freshness: HubFreshness = { source: 'network', fetchedAt: '2026-11-23T10:00:00.000Z' };
const cached: HubFreshness = { source: 'cache', fetchedAt: '2026-11-23T10:00:00.000Z', reason: 'offline' };
const top = (...ids: string[]) => ({ results: ids.map((id) => ({ id, downloads: 5 })), freshness });

beforeEach(() => {
  main.reset();
  useSettings.setState({ view: settings('online') });
});
afterEach(cleanup);

describe('Settings → Hardware: the detection through hooks/app', () => {
  it('a first detection answered after "Detect again" does not replace the newer answer', async () => {
    render(<HardwareSettings />);
    const first = await main.next('system.hardware');
    await userEvent.click(screen.getByRole('button', { name: 'Detect again' }));
    const again = main.waiting('system.hardware')[1];
    expect(again.input).toEqual({ refresh: true });
    await again.answer(hardware(64 * GiB));
    await first.answer(hardware(32 * GiB));
    expect(screen.getByTestId('hardware-detected').textContent).toMatch(/^68.7 GB RAM/);
  });

  it('the figures shown stay while main detects again, and a failure keeps them beside the error', async () => {
    render(<HardwareSettings />);
    await (await main.next('system.hardware')).answer(hardware(32 * GiB));
    await userEvent.click(screen.getByRole('button', { name: 'Detect again' }));
    expect(screen.getByTestId('hardware-detected').textContent).toMatch(/^34.4 GB RAM/);
    await (await main.next('system.hardware')).fail({ code: 'internal', message: 'no /proc/meminfo' });
    expect(screen.getByTestId('hardware-detected').textContent).toBe('unknown (no /proc/meminfo)');
  });
});

describe("Library page → the Hub's top models through useHubLive", () => {
  it("a late answer for the library shown before does not replace the current library's list", async () => {
    const { rerender } = render(<TopHubModels library="a" />);
    const forA = await main.next('hub.search');
    expect(forA.input).toEqual({ kind: 'models', library: 'a', sort: 'downloads', limit: 10 });
    rerender(<TopHubModels library="b" />);
    const forB = main.waiting('hub.search')[1];
    await forB.answer(top('org/b-model'));
    await forA.answer(top('org/a-model'));
    expect(screen.getByRole('link', { name: 'org/b-model' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'org/a-model' })).toBeNull();
  });

  it('Hub access off with nothing cached says so; switching access asks again', async () => {
    render(<TopHubModels library="a" />);
    expect(screen.getByRole('status').textContent).toBe('Asking the Hub…');
    await (
      await main.next('hub.search')
    ).fail({ code: 'hub_off', message: 'Hub access is off', details: { reason: 'hub-off' } } as never);
    expect(screen.getByText(/Hub access is off, and this list was not seen before/)).toBeTruthy();
    act(() => useSettings.setState({ view: settings('offline') }));
    await (await main.next('hub.search')).answer({ ...top('org/a-model'), freshness: cached });
    expect(screen.getByText(/^cached ·/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'org/a-model' })).toBeTruthy();
  });
});

describe('Tools → a server card through hooks/mcp', () => {
  const server: McpServerStatus = {
    name: 'files',
    transport: 'stdio',
    state: 'stopped',
    tools: [],
  } as unknown as McpServerStatus;

  it('Start asks main, shows its error, and asks for the status after it either way', async () => {
    const onStatus = vi.fn();
    render(<ServerCard server={server} onStatus={onStatus} />);
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    const start = await main.next('mcp.start');
    expect(start.input).toEqual({ name: 'files' });
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    await start.fail({ code: 'internal', message: 'spawn npx ENOENT' });
    expect(screen.getByText('spawn npx ENOENT')).toBeTruthy();
    expect(onStatus).toHaveBeenCalledTimes(1);
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Log shows the server’s stderr, and hides it again', async () => {
    render(<ServerCard server={server} onStatus={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Log' }));
    await (await main.next('mcp.log')).answer({ text: 'listening', truncated: false });
    expect(screen.getByLabelText('stderr of files').textContent).toBe('listening');
    await userEvent.click(screen.getByRole('button', { name: 'Hide log' }));
    expect(screen.queryByLabelText('stderr of files')).toBeNull();
  });
});

describe('useFit: the machine and the GGUF header through useQuery', () => {
  const quants = [{ label: 'Q4_K_M', files: ['model-Q4_K_M.gguf'] }];
  const header = (contextLength: number) => ({
    blockCount: 32,
    contextLength,
    embeddingLength: 4096,
    headCount: 32,
    headCountKv: 8,
  });

  it('a repo without GGUF quantizations asks main nothing', () => {
    renderHook(() => useFit('org/plain', undefined, []));
    expect(main.waiting()).toEqual([]);
  });

  it('a late header of the repo shown before does not describe the current one, though its file has the same name', async () => {
    const { result, rerender } = renderHook(({ id }) => useFit(id, undefined, quants), {
      initialProps: { id: 'org/a' },
    });
    await (await main.next('system.hardware')).answer(hardware(32 * GiB));
    const forA = await main.next('hub.ggufHeader');
    rerender({ id: 'org/b' });
    const forB = main.waiting('hub.ggufHeader')[1];
    expect(forB.input).toEqual({ id: 'org/b', file: 'model-Q4_K_M.gguf' });
    await forB.answer(header(8192));
    await forA.answer(header(131072));
    expect(result.current.maxCtx).toBe(8192);
    expect(result.current.hardware?.detected.ramTotal).toBe(32 * GiB);
  });

  it('a header main could not read is named, and the KV cache estimated', async () => {
    const { result } = renderHook(() => useFit('org/a', undefined, quants));
    await (await main.next('hub.ggufHeader')).fail({ code: 'upstream', message: 'Range not satisfiable.' });
    expect(result.current.headerNote).toMatch(
      /^The GGUF header of model-Q4_K_M.gguf could not be read \(Range not satisfiable.\)/,
    );
  });
});
