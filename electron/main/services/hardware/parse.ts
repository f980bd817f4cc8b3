import type { Gpu } from '@shared/contract/hardware';

// Parsers for the GPU tools' outputs: pure, unit-tested on captured outputs (tests/fixtures/hardware/).

const MiB = 1024 ** 2;

/**
 * `nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader,nounits`: one line per GPU,
 * `NVIDIA GeForce RTX 4090, 24564, 23861` (memory in MiB). Lines that do not parse (`[N/A]`, errors) are skipped.
 */
export function parseNvidiaSmi(stdout: string): Gpu[] {
  const out: Gpu[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length < 3) continue;
    // A GPU name may itself hold a comma: the last two cells are the numbers.
    const free = Number(cells[cells.length - 1]);
    const total = Number(cells[cells.length - 2]);
    const name = cells.slice(0, -2).join(', ');
    if (!name || !Number.isFinite(total) || total <= 0) continue;
    const gpu: Gpu = { name, vendor: 'nvidia', vramTotal: total * MiB };
    if (Number.isFinite(free) && free >= 0) gpu.vramFree = free * MiB;
    out.push(gpu);
  }
  return out;
}

/**
 * `rocm-smi --showmeminfo vram --json`: `{"card0": {"VRAM Total Memory (B)": "25753026560",
 * "VRAM Total Used Memory (B)": "..."}, …}` (values in bytes, as strings). With `--showproductname` a card also
 * carries "Card series"; otherwise the card key names it. Anything else (text output, warnings) gives no GPU.
 */
export function parseRocmSmi(stdout: string): Gpu[] {
  const start = stdout.indexOf('{');
  if (start < 0) return [];
  let data: unknown;
  try {
    data = JSON.parse(stdout.slice(start));
  } catch {
    return [];
  }
  if (!data || typeof data !== 'object') return [];
  const out: Gpu[] = [];
  for (const [card, v] of Object.entries(data as Record<string, unknown>)) {
    if (!/^card\d+$/i.test(card) || !v || typeof v !== 'object') continue;
    const fields = v as Record<string, unknown>;
    const total = Number(fields['VRAM Total Memory (B)']);
    if (!Number.isFinite(total) || total <= 0) continue;
    const used = Number(fields['VRAM Total Used Memory (B)']);
    const series = fields['Card series'] ?? fields['Card Series'];
    const gpu: Gpu = {
      name: typeof series === 'string' ? series : `AMD GPU (${card})`,
      vendor: 'amd',
      vramTotal: total,
    };
    if (Number.isFinite(used) && used >= 0 && used <= total) gpu.vramFree = total - used;
    out.push(gpu);
  }
  return out;
}

/** `sysctl hw.memsize` (`hw.memsize: 17179869184`) or `sysctl -n hw.memsize` (`17179869184`): bytes. */
export function parseSysctlMemsize(stdout: string): number | undefined {
  const m = /(?:hw\.memsize\s*[:=]\s*)?(\d{6,})/.exec(stdout.trim());
  const n = m ? Number(m[1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
