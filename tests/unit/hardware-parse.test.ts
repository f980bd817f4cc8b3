import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNvidiaSmi, parseRocmSmi, parseSysctlMemsize } from '../../electron/main/services/hardware/parse';
import { HardwareService, type RunTool } from '../../electron/main/services/hardware/service';
import { createLogger } from '../../electron/main/services/log';

const fx = (name: string) => readFileSync(join(__dirname, '../fixtures/hardware', name), 'utf8');
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

describe('GPU tool parsers (captured outputs)', () => {
  it('reads nvidia-smi csv,noheader,nounits: one GPU per line, MiB', () => {
    expect(parseNvidiaSmi(fx('nvidia-smi-2gpus.txt'))).toEqual([
      { name: 'NVIDIA GeForce RTX 4090', vendor: 'nvidia', vramTotal: 24564 * MiB, vramFree: 23861 * MiB },
      { name: 'NVIDIA RTX A2000 12GB', vendor: 'nvidia', vramTotal: 12282 * MiB, vramFree: 11900 * MiB },
    ]);
  });
  it('gives no GPU for nvidia-smi driver errors and [N/A] cells', () => {
    expect(parseNvidiaSmi(fx('nvidia-smi-error.txt'))).toEqual([]);
    expect(parseNvidiaSmi('Tesla T4, [N/A], [N/A]\n')).toEqual([]);
    expect(parseNvidiaSmi('')).toEqual([]);
  });
  it('reads rocm-smi --showmeminfo vram --json (bytes as strings), skipping a banner', () => {
    const gpus = parseRocmSmi(fx('rocm-smi-vram.txt'));
    expect(gpus).toHaveLength(2);
    expect(gpus[0]).toEqual({
      name: 'AMD GPU (card0)',
      vendor: 'amd',
      vramTotal: 25753026560,
      vramFree: 25753026560 - 1234567168,
    });
    expect(parseRocmSmi('WARNING: No AMD GPUs specified')).toEqual([]);
    expect(parseRocmSmi('{"card0": {"VRAM Total Memory (B)": "garbage"}}')).toEqual([]);
    expect(parseRocmSmi('{not json')).toEqual([]);
  });
  it('reads sysctl hw.memsize in both forms', () => {
    expect(parseSysctlMemsize(fx('sysctl-memsize.txt'))).toBe(32 * GiB);
    expect(parseSysctlMemsize('17179869184\n')).toBe(16 * GiB);
    expect(parseSysctlMemsize('sysctl: unknown oid')).toBeUndefined();
  });
});

describe('HardwareService', () => {
  const log = createLogger({});
  const memory = () => ({ total: 32 * GiB, free: 20 * GiB });
  const enoent: RunTool = async () => {
    throw Object.assign(new Error('spawn nvidia-smi ENOENT'), { code: 'ENOENT' });
  };

  it('treats missing tools as "no GPU", not as an error', async () => {
    const s = new HardwareService({ override: () => undefined, log, run: enoent, platform: 'linux', memory });
    const v = await s.view();
    expect(v.detected).toEqual({ ramTotal: 32 * GiB, ramFree: 20 * GiB, gpus: [], unified: false });
    expect(v.probes).toEqual([
      { tool: 'nvidia-smi', result: 'not installed' },
      { tool: 'rocm-smi', result: 'not installed' },
    ]);
    expect(v.source).toBe('detected');
  });

  it('runs nvidia-smi with the documented query and a timeout; a hung tool is reported as timed out', async () => {
    const calls: string[] = [];
    const run: RunTool = async (cmd, args, timeout) => {
      calls.push(`${cmd} ${args.join(' ')} (${timeout})`);
      if (cmd === 'nvidia-smi') return fx('nvidia-smi-2gpus.txt');
      throw Object.assign(new Error('killed'), { killed: true });
    };
    const v = await new HardwareService({
      override: () => undefined,
      log,
      run,
      platform: 'linux',
      memory,
      timeoutMs: 50,
    }).view();
    expect(calls[0]).toBe('nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader,nounits (50)');
    expect(v.detected.gpus.map((g) => g.name)).toEqual(['NVIDIA GeForce RTX 4090', 'NVIDIA RTX A2000 12GB']);
    expect(v.probes[1]).toEqual({ tool: 'rocm-smi', result: 'timed out' });
  });

  it('Apple Silicon: unified memory from sysctl, GPU budget three quarters of it', async () => {
    const run: RunTool = async (cmd) => (cmd === 'sysctl' ? fx('sysctl-memsize.txt') : '');
    const v = await new HardwareService({
      override: () => undefined,
      log,
      run,
      platform: 'darwin',
      arch: 'arm64',
      memory,
    }).view();
    expect(v.detected.unified).toBe(true);
    expect(v.detected.gpus).toEqual([{ name: 'Apple Silicon GPU', vendor: 'apple', vramTotal: 24 * GiB }]);
  });

  it('the Settings override replaces what was detected for the verdicts, and the detection stays visible', async () => {
    let override: { vramGiB: number; ramGiB: number } | undefined = { vramGiB: 8, ramGiB: 16 };
    const s = new HardwareService({ override: () => override, log, run: enoent, platform: 'linux', memory });
    const v = await s.view();
    expect(v.source).toBe('override');
    expect(v.effective.ramTotal).toBe(16 * GiB);
    expect(v.effective.gpus[0].vramTotal).toBe(8 * GiB);
    expect(v.detected.gpus).toEqual([]);
    override = { vramGiB: 0, ramGiB: 4 };
    expect((await s.view()).effective.gpus).toEqual([]);
  });
});
