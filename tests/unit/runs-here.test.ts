import { describe, expect, it } from 'vitest';
import type { Hardware } from '@shared/contract/hardware';
import { GiB } from '@shared/fit';
import type { ModelRecord } from '@shared/model-record';
import { isAppleSilicon, mlxFit, mlxGroup, mlxWeightsBytes } from '../../renderer/src/lib/runs-here';

const mac = (gib: number): Hardware => ({
  ramTotal: gib * GiB,
  ramFree: gib * GiB,
  gpus: [{ name: 'Apple M2', vendor: 'apple', vramTotal: gib * 0.75 * GiB }],
  unified: true,
});
const pc: Hardware = { ramTotal: 32 * GiB, ramFree: 16 * GiB, gpus: [], unified: false };
const repo = (files: [string, number?][], extra: Partial<ModelRecord> = {}): ModelRecord => ({
  id: 'mlx-community/Some-Model-4bit',
  tags: ['mlx'],
  siblings: files.map(([rfilename, size]) => ({ rfilename, size })),
  ...extra,
});

describe('"Runs on this machine": MLX where it runs', () => {
  it('lists MLX on Apple Silicon (detected, or claimed by the override), a note elsewhere, nothing while unknown', () => {
    expect(mlxGroup(mac(16))).toBe('list');
    expect(mlxGroup({ ...pc, unified: true })).toBe('list'); // the Settings override's "unified memory"
    expect(mlxGroup(pc)).toBe('note');
    expect(mlxGroup({ ...pc, gpus: [{ name: 'RTX', vendor: 'nvidia', vramTotal: 24 * GiB }] })).toBe('note');
    expect(mlxGroup(undefined)).toBe('none');
    expect(isAppleSilicon({ ...pc, gpus: [{ name: 'M1', vendor: 'apple', vramTotal: 8 * GiB }] })).toBe(true);
  });

  it('sizes an MLX repo by its safetensors files, else by its parameters per dtype; unknown without either', () => {
    const r = repo([
      ['model-00001-of-00002.safetensors', 3e9],
      ['model-00002-of-00002.safetensors', 1e9],
      ['tokenizer.json', 5e6],
      ['README.md', 1000],
    ]);
    expect(mlxWeightsBytes(r)).toBe(4e9);
    const byParams = repo([['model.safetensors']], {
      safetensors: { parameters: { BF16: 1e9, U32: 5e8 }, total: 1.5e9 },
    });
    expect(mlxWeightsBytes(byParams)).toBe(2e9 + 2e9);
    expect(mlxWeightsBytes(repo([['README.md', 10]]))).toBeUndefined();
    expect(mlxFit(repo([['README.md', 10]]), mac(16))).toEqual({ state: 'unknown' });
  });

  it('judges the weights against unified memory: fits on a 16 GB Mac, too large on an 8 GB one', () => {
    const r = repo([['model.safetensors', 8e9]], { safetensors: { parameters: { U32: 2e9 }, total: 14e9 } });
    const big = mlxFit(r, mac(32));
    expect(big).toMatchObject({ state: 'ok', label: 'MLX', size: 8e9, fit: { verdict: 'vram' } });
    if (big.state === 'ok') expect(big.fit.summary).toContain('unified memory');
    expect(mlxFit(r, mac(8))).toMatchObject({ state: 'ok', fit: { verdict: 'too-large' } });
  });
});
