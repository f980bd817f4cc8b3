import { describe, expect, test } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import { GiB, type FitHardware } from '@shared/fit';
import { PICKS, recommend } from '../../electron/main/services/local/recommend';

const cpu = (ramGiB: number): FitHardware => ({ ramBytes: ramGiB * GiB, vramBytes: 0, unified: false });

const onDisk = (id: string, problem?: string): LocalModel => ({
  id,
  name: 'x',
  path: `/cache/${id}`,
  parts: 1,
  source: 'hf-cache',
  folder: '/cache',
  sizeBytes: 1,
  embedding: false,
  deletable: false,
  problem,
});

describe('recommend', () => {
  test('the list: small chat GGUFs at Q4_K_M, smallest first', () => {
    expect(PICKS.map((p) => p.sizeBytes)).toEqual([...PICKS.map((p) => p.sizeBytes)].sort((a, b) => a - b));
    for (const p of PICKS) expect(p.file).toMatch(/q4_k_m\.gguf$/i);
  });

  test('without hardware: the 1B model', () => {
    const r = recommend(undefined, []);
    expect(r).toMatchObject({ repo: 'bartowski/Llama-3.2-1B-Instruct-GGUF', quant: 'Q4_K_M' });
    expect(r?.why).toMatch(/could not read/);
    expect(r?.modelId).toBeUndefined();
  });

  test('the largest that fits fully, up to 3B on a CPU: 16 GB without GPU gets the 3B, not the slow 7B', () => {
    expect(recommend(cpu(16), [])).toMatchObject({
      repo: 'bartowski/Llama-3.2-3B-Instruct-GGUF',
      file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
      why: 'Fits in RAM (CPU) on this machine: 17.2 GB RAM, no GPU. Larger models answer slowly without a GPU.',
    });
    expect(recommend({ ramBytes: 16 * GiB, vramBytes: 8 * GiB, unified: false }, [])?.repo).toBe(
      'bartowski/Qwen2.5-7B-Instruct-GGUF',
    );
    expect(recommend(cpu(4), [])?.repo).toBe('bartowski/Llama-3.2-3B-Instruct-GGUF');
    expect(recommend(cpu(2), [])?.repo).toBe('bartowski/Llama-3.2-1B-Instruct-GGUF');
  });

  test('a GPU: the largest that fits in VRAM, not one that would be split', () => {
    const r = recommend({ ramBytes: 16 * GiB, vramBytes: 4 * GiB, unified: false }, []);
    expect(r).toMatchObject({
      repo: 'bartowski/Llama-3.2-3B-Instruct-GGUF',
      why: 'Fits in VRAM on this machine: 17.2 GB RAM, a GPU with 4.3 GB VRAM.',
    });
  });

  test('nothing fits: the smallest, said plainly', () => {
    const r = recommend(cpu(1), []);
    expect(r?.repo).toBe('Qwen/Qwen2.5-0.5B-Instruct-GGUF');
    expect(r?.why).toBe('The smallest suggested model; even it is tight on this machine: 1.1 GB RAM, no GPU.');
  });

  test('already on disk: its local id, unless that copy cannot be used', () => {
    const id = 'bartowski/Llama-3.2-3B-Instruct-GGUF/Llama-3.2-3B-Instruct-Q4_K_M.gguf';
    expect(recommend(cpu(4), [onDisk('other/x-GGUF/x.gguf'), onDisk(id)])?.modelId).toBe(id);
    expect(recommend(cpu(4), [onDisk(id, 'part 2 of 3 is missing')])?.modelId).toBeUndefined();
  });
});
