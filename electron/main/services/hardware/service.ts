import { execFile } from 'node:child_process';
import { freemem, totalmem } from 'node:os';
import type { Gpu, Hardware, HardwareOverride, HardwareView } from '@shared/contract/hardware';
import { GiB } from '@shared/fit';
import type { Logger } from '../log';
import { parseNvidiaSmi, parseRocmSmi, parseSysctlMemsize } from './parse';

/** Runs a tool and gives its stdout; rejects with `code: 'ENOENT'` when it is not installed. */
export type RunTool = (cmd: string, args: string[], timeoutMs: number) => Promise<string>;

const runTool: RunTool = (cmd, args, timeoutMs) =>
  new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, windowsHide: true, maxBuffer: 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(String(stdout)),
    );
  });

interface HardwareServiceOptions {
  override: () => HardwareOverride | undefined;
  log: Logger;
  run?: RunTool;
  platform?: NodeJS.Platform;
  arch?: string;
  memory?: () => { total: number; free: number };
  timeoutMs?: number;
}

interface Detected {
  hardware: Hardware;
  probes: { tool: string; result: string }[];
  at: number;
}

/** GPUs change only when the machine does: a detection is kept this long (free RAM is re-read every call). */
const KEEP_MS = 5 * 60_000;

function why(e: unknown): string {
  const err = e as { code?: string | number; killed?: boolean; message?: string };
  if (err.code === 'ENOENT') return 'not installed';
  if (err.killed) return 'timed out';
  return `failed (${String(err.message ?? e)
    .split('\n')[0]
    .slice(0, 120)})`;
}

/** This machine's RAM and GPUs (nvidia-smi, rocm-smi, Apple unified memory), and the user's override of them. */
export class HardwareService {
  private cached?: Detected;
  private pending?: Promise<Detected>;

  constructor(private readonly opts: HardwareServiceOptions) {}

  private memory() {
    return this.opts.memory?.() ?? { total: totalmem(), free: freemem() };
  }

  private async probe(): Promise<Detected> {
    const run = this.opts.run ?? runTool;
    const timeout = this.opts.timeoutMs ?? 3000;
    const platform = this.opts.platform ?? process.platform;
    const arch = this.opts.arch ?? process.arch;
    const probes: Detected['probes'] = [];
    const mem = this.memory();
    const gpus: Gpu[] = [];
    let unified = false;
    const tryTool = async (tool: string, args: string[], parse: (s: string) => Gpu[]) => {
      try {
        const found = parse(await run(tool, args, timeout));
        gpus.push(...found);
        probes.push({ tool, result: found.length ? `${found.length} GPU(s)` : 'no GPU reported' });
      } catch (e) {
        probes.push({ tool, result: why(e) });
      }
    };
    if (platform === 'darwin' && arch === 'arm64') {
      let total = mem.total;
      try {
        total = parseSysctlMemsize(await run('sysctl', ['-n', 'hw.memsize'], timeout)) ?? total;
        probes.push({ tool: 'sysctl hw.memsize', result: `${(total / GiB).toFixed(0)} GB unified memory` });
      } catch (e) {
        probes.push({ tool: 'sysctl hw.memsize', result: why(e) });
      }
      unified = true;
      // Metal lets the GPU wire about three quarters of unified memory by default.
      gpus.push({ name: 'Apple Silicon GPU', vendor: 'apple', vramTotal: Math.round(total * 0.75) });
    } else {
      await tryTool(
        'nvidia-smi',
        ['--query-gpu=name,memory.total,memory.free', '--format=csv,noheader,nounits'],
        parseNvidiaSmi,
      );
      await tryTool('rocm-smi', ['--showmeminfo', 'vram', '--json'], parseRocmSmi);
    }
    const hardware: Hardware = { ramTotal: mem.total, ramFree: mem.free, gpus, unified };
    this.opts.log.info('hardware detected', { gpus: gpus.map((g) => g.name), probes });
    return { hardware, probes, at: Date.now() };
  }

  private async detected(refresh: boolean): Promise<Detected> {
    if (!refresh && this.cached && Date.now() - this.cached.at < KEEP_MS) {
      const mem = this.memory();
      return { ...this.cached, hardware: { ...this.cached.hardware, ramTotal: mem.total, ramFree: mem.free } };
    }
    this.pending ??= this.probe().finally(() => (this.pending = undefined));
    this.cached = await this.pending;
    return this.cached;
  }

  async view(refresh = false): Promise<HardwareView> {
    const { hardware, probes } = await this.detected(refresh);
    const o = this.opts.override();
    if (!o) return { detected: hardware, probes, effective: hardware, source: 'detected' };
    const ram = o.ramGiB * GiB;
    const effective: Hardware = {
      ramTotal: ram,
      ramFree: Math.min(ram, hardware.ramFree),
      gpus: o.vramGiB > 0 ? [{ name: 'GPU', vendor: o.unified ? 'apple' : 'nvidia', vramTotal: o.vramGiB * GiB }] : [],
      unified: !!o.unified,
    };
    return { detected: hardware, probes, effective, source: 'override' };
  }
}
