// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HardwareView } from '@shared/contract/hardware';
import { GiB, planQuants, type KvShape } from '@shared/fit';
import type { FitPlan } from '../../renderer/src/hooks/fit';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { Quants } = await import('../../renderer/src/pages/catalogue/Quants');

const shape: KvShape = {
  layers: 16,
  kvHeads: 8,
  keyLength: 64,
  valueLength: 64,
  contextLength: 131072,
  source: 'header',
};
const quants = [
  { label: 'Q4_K_M', files: ['m-Q4_K_M.gguf'], size: 4_920_000_000 },
  { label: 'Q8_0', files: ['m-Q8_0.gguf'], size: 8_540_000_000 },
  { label: 'F16', files: ['m-F16.gguf'], size: 16_070_000_000 },
];

/** The plan the page gets from useFit for a 24 GiB machine, with or without a 12 GiB GPU. */
function planFor(vramGiB: number): FitPlan {
  const machine = {
    ramTotal: 24 * GiB,
    ramFree: 20 * GiB,
    gpus: vramGiB ? [{ name: 'RTX', vendor: 'nvidia' as const, vramTotal: vramGiB * GiB }] : [],
    unified: false,
  };
  const hardware: HardwareView = { detected: machine, effective: machine, probes: [], source: 'detected' };
  const plan = planQuants(
    quants,
    { ramBytes: machine.ramTotal, vramBytes: vramGiB * GiB, unified: false },
    shape,
    4096,
  );
  return { hardware, shape, ctx: 4096, maxCtx: 131072, setCtx: () => {}, ...plan };
}

const row = (label: string) => screen.getAllByTestId('quant-row').find((r) => r.dataset.quant === label)!;

afterEach(cleanup);

describe('Quants', () => {
  it('on a CPU-only machine defaults to Q4_K_M and says why; each verdict has its line in the table', () => {
    render(<Quants id="o/m-GGUF" plan={planFor(0)} onPick={() => {}} />);
    expect(within(row('Q4_K_M')).getByTestId('default-quant')).toBeTruthy();
    expect(within(row('Q4_K_M')).getByTestId('default-why').textContent).toBe(
      'Q4_K_M: about 3× faster than F16 on a CPU, little quality lost',
    );
    // One unit: the size column and the fit texts both say decimal GB.
    expect(within(row('F16')).getByText('16.1 GB')).toBeTruthy();
    expect(within(row('F16')).getByTestId('fit-summary').textContent).toBe('needs 16.7 GB of 20.6 GB usable RAM');
    expect(within(row('F16')).getByRole('tooltip').textContent).toMatch(/file 16\.1 GB/);
    expect(screen.getByTestId('fit-hardware').textContent).toMatch(/^This machine: 25\.8 GB RAM, no GPU/);
  });

  it('with a GPU keeps the largest that fits in VRAM', () => {
    render(<Quants id="o/m-GGUF" plan={planFor(12)} onPick={() => {}} />);
    expect(within(row('Q8_0')).getByTestId('default-why').textContent).toBe('The largest that fits in VRAM');
    expect(within(row('F16')).getByTestId('fit-summary').textContent).toBe(
      'needs 16.7 GB: 12.9 GB in VRAM, the rest in RAM',
    );
  });

  it('opens the tip above a badge near the bottom of the page, below one with room under it', () => {
    render(<Quants id="o/m-GGUF" plan={planFor(0)} onPick={() => {}} />);
    const [first, , last] = screen.getAllByTestId('fit-badge');
    const at = (el: HTMLElement, top: number) =>
      (el.getBoundingClientRect = () =>
        ({ top, bottom: top + 20, left: 0, right: 80, width: 80, height: 20 }) as DOMRect);
    at(first, 100);
    at(last, window.innerHeight - 40);
    for (const tip of screen.getAllByRole('tooltip')) Object.defineProperty(tip, 'offsetHeight', { value: 120 });
    act(() => first.focus());
    expect(first.dataset.tip).toBe('below');
    act(() => last.focus());
    expect(last.dataset.tip).toBe('above');
  });
});
