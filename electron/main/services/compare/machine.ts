import { cpus, totalmem } from 'node:os';
import type { Hardware } from '@shared/contract/hardware';
import { gb } from '@shared/fit';

/** The processor's name as the OS gives it, spaces folded ("Intel(R) Xeon(R) CPU @ 2.20GHz"). */
function cpuName(): string {
  return (cpus()[0]?.model ?? '').replace(/\s+/g, ' ').trim() || 'Unknown CPU';
}

/**
 * This machine in one line, the scoreboard's key: CPU, RAM and GPUs as detected (not the Settings override:
 * the votes are about how models ran here). "AMD Ryzen 7 5800X · 34.3 GB RAM · NVIDIA GeForce RTX 3060 12.9 GB".
 */
export function describeMachine(hw: Hardware | undefined, cpu = cpuName()): string {
  const ram = hw?.ramTotal ?? totalmem();
  if (hw?.unified) return `${cpu} · ${gb(ram)} unified memory`;
  const gpus = hw?.gpus.map((g) => `${g.name} ${gb(g.vramTotal)}`) ?? [];
  return [cpu, `${gb(ram)} RAM`, ...(gpus.length ? gpus : ['no GPU'])].join(' · ');
}
