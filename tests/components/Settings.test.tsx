// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HardwareView } from '@shared/contract/hardware';
import type { Settings, SettingsView } from '@shared/contract/settings';
import { GiB } from '@shared/fit';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { HubAccessSetting } = await import('../../renderer/src/pages/settings/HubAccessSetting');
const { HardwareSettings } = await import('../../renderer/src/pages/settings/HardwareSettings');
const { useSettings } = await import('../../renderer/src/store/settings');

/** Settings as main returns them (only the values these cards read). */
const view = (values: Partial<Settings>) =>
  ({ values: { hubEndpoint: 'https://huggingface.co', ...values }, secrets: [] }) as unknown as SettingsView;
const hardware = (ramTotal: number): HardwareView => {
  const detected = {
    ramTotal,
    ramFree: 12 * GiB,
    gpus: [{ name: 'NVIDIA RTX 4090', vendor: 'nvidia' as const, vramTotal: 24 * GiB }],
    unified: false,
  };
  return { detected, effective: detected, probes: [{ tool: 'nvidia-smi', result: 'found 1 GPU' }], source: 'detected' };
};
const radio = (name: string) => screen.getByRole('radio', { name });

beforeEach(() => main.reset());
afterEach(cleanup);

describe('Settings → Hub access', () => {
  it('not chosen yet: neither is checked; a choice goes through main and shows what it sends', async () => {
    useSettings.setState({ view: view({ hubAccess: 'ask' }) });
    render(<HubAccessSetting />);
    expect(radio('Use the Hub').getAttribute('aria-checked')).toBe('false');
    expect(radio('Stay offline').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText(/Not chosen yet: nothing is sent to the Hub/)).toBeTruthy();

    await userEvent.click(radio('Use the Hub'));
    const update = await main.next('settings.update');
    expect(update.input).toEqual({ hubAccess: 'online' });
    // Main has not said yes yet: the page shows what main holds.
    expect(radio('Use the Hub').getAttribute('aria-checked')).toBe('false');
    await update.answer(view({ hubAccess: 'online' }));
    expect(radio('Use the Hub').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('hub-access-setting').textContent).toMatch(/ids of the models you open are sent/);
    expect(screen.getByText('https://huggingface.co')).toBeTruthy();
  });

  it('a change main refuses is shown, and the setting stays as it was', async () => {
    useSettings.setState({ view: view({ hubAccess: 'online' }) });
    render(<HubAccessSetting />);
    await userEvent.click(radio('Stay offline'));
    await (await main.next('settings.update')).fail({ code: 'internal', message: 'Could not write settings.json.' });
    expect(screen.getByText('Could not write settings.json.')).toBeTruthy();
    expect(radio('Use the Hub').getAttribute('aria-checked')).toBe('true');

    await userEvent.click(radio('Stay offline'));
    expect(screen.queryByText('Could not write settings.json.')).toBeNull();
    await (await main.next('settings.update')).answer(view({ hubAccess: 'offline' }));
    expect(radio('Stay offline').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('hub-access-setting').textContent).toMatch(/Nothing is sent to the Hub/);
  });
});

describe('Settings → Hardware', () => {
  it('shows what main detected; Detect again asks main to probe again', async () => {
    useSettings.setState({ view: view({}) });
    render(<HardwareSettings />);
    expect(screen.getByTestId('hardware-detected').textContent).toBe('checking…');
    const first = await main.next('system.hardware');
    expect(first.input).toEqual({ refresh: false });
    await first.answer(hardware(32 * GiB));
    expect(screen.getByTestId('hardware-detected').textContent).toBe(
      '34.4 GB RAM (12.9 GB free), NVIDIA RTX 4090 25.8 GB',
    );
    expect(screen.getByText('nvidia-smi: found 1 GPU')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Detect again' }));
    const again = await main.next('system.hardware');
    expect(again.input).toEqual({ refresh: true });
    await again.fail({ code: 'internal', message: 'no /proc/meminfo' });
    expect(screen.getByTestId('hardware-detected').textContent).toBe('unknown (no /proc/meminfo)');
  });

  it('own figures are checked before they are sent; saved, they are marked as set by you and can be undone', async () => {
    useSettings.setState({ view: view({}) });
    render(<HardwareSettings />);
    await (await main.next('system.hardware')).answer(hardware(32 * GiB));
    expect(screen.getByText('detected')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('RAM (GiB)'), '0.2');
    await userEvent.click(screen.getByRole('button', { name: 'Use these figures' }));
    expect(screen.getByRole('alert').textContent).toBe('RAM: a size in GiB, at least 0.5.');
    expect(main.waiting('settings.update')).toEqual([]);

    await userEvent.clear(screen.getByLabelText('RAM (GiB)'));
    await userEvent.type(screen.getByLabelText('RAM (GiB)'), '16');
    await userEvent.type(screen.getByLabelText('GPU memory (GiB)'), '-1');
    await userEvent.click(screen.getByRole('button', { name: 'Use these figures' }));
    expect(screen.getByRole('alert').textContent).toBe('GPU memory: a size in GiB (0 for no GPU).');

    await userEvent.clear(screen.getByLabelText('GPU memory (GiB)'));
    await userEvent.type(screen.getByLabelText('GPU memory (GiB)'), '8');
    await userEvent.click(screen.getByRole('checkbox', { name: /Unified memory/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Use these figures' }));
    const save = await main.next('settings.update');
    expect(save.input).toEqual({ hardwareOverride: { vramGiB: 8, ramGiB: 16, unified: true } });
    expect(screen.queryByRole('alert')).toBeNull();
    await save.answer(view({ hardwareOverride: { vramGiB: 8, ramGiB: 16, unified: true } }));
    expect(screen.getByText('set by you')).toBeTruthy();
    // The fit verdicts change with the override: main is asked what is effective now.
    await main.next('system.hardware');

    await userEvent.click(screen.getByRole('button', { name: 'Use detected' }));
    const undo = await main.next('settings.update');
    expect(undo.input).toEqual({ hardwareOverride: null });
    await undo.answer(view({}));
    expect(screen.getByText('detected')).toBeTruthy();
    expect((screen.getByLabelText('RAM (GiB)') as HTMLInputElement).value).toBe('');
  });

  it('an override main refuses is shown beside the form', async () => {
    useSettings.setState({ view: view({}) });
    render(<HardwareSettings />);
    await userEvent.type(screen.getByLabelText('RAM (GiB)'), '100000');
    await userEvent.click(screen.getByRole('button', { name: 'Use these figures' }));
    await (await main.next('settings.update')).fail({ code: 'invalid_input', message: 'ramGiB: at most 65536' });
    expect(screen.getByRole('alert').textContent).toBe('ramGiB: at most 65536');
  });
});
