// `npm run security:electron`: Electronegativity over the app's sources (main, preload, shared, renderer, the
// HTML with its CSP). Fails on any HIGH finding or MEDIUM finding of CERTAIN confidence; prints every finding.
// Runs offline: the one check that asks the network for Electron releases is skipped.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'hubdesk-eneg-'));
try {
  for (const p of ['electron', 'shared', 'renderer/src', 'renderer/index.html', 'package.json'])
    cpSync(join(root, p), join(work, 'app', p), { recursive: true });
  const electron = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.electron;
  const out = join(work, 'findings.csv');
  const bin = join(root, 'node_modules', '.bin', 'electronegativity');
  const args = ['-i', join(work, 'app'), '-r', '-v', 'false', '-e', electron, '-o', out];
  args.push('-x', 'AvailableSecurityFixesGlobalCheck');
  const run = spawnSync(bin, args, { encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0) {
    process.stderr.write(run.stdout + run.stderr);
    throw new Error(`electronegativity exited with ${run.status ?? run.signal}`);
  }
  const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1);
  const findings = rows.map((line) => {
    const [issue, severity, confidence, file, location] = line.split(',').map((s) => s.replace(/^"|"$/g, ''));
    return { issue, severity, confidence, file, location };
  });
  const blocking = findings.filter(
    (f) => f.severity === 'HIGH' || (f.severity === 'MEDIUM' && f.confidence === 'CERTAIN'),
  );
  for (const f of findings)
    console.log(
      `${blocking.includes(f) ? 'FAIL' : 'note'} ${f.severity}/${f.confidence} ${f.issue} ${f.file}:${f.location}`,
    );
  console.log(`electronegativity: ${findings.length} findings, ${blocking.length} HIGH or MEDIUM-CERTAIN`);
  process.exitCode = blocking.length ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
