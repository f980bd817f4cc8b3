import { createInterface } from 'node:readline';
import { app, utilityProcess, type Details } from 'electron';
import type { SpawnHost } from '../services/local/host/protocol';

const SERVICE = 'HubDesk engine';

/** Electron's reason for a child process gone, as the signal the supervisor names (exit.ts). */
const SIGNAL_OF: Partial<Record<Details['reason'], string>> = { oom: 'SIGKILL', killed: 'SIGKILL' };

/**
 * The engine host as an Electron utilityProcess (forked after `ready`: before it the fork fails, electron#44461).
 * Its stdio is piped, not inherited, so llama.cpp's assert lines reach the supervisor for the crash's details. The
 * `exit` event gives a code only; `child-process-gone` says why (killed, out of memory), so the end waits a turn
 * for it.
 */
export function utilityHost(entry: string): SpawnHost {
  return (env) => {
    const child = utilityProcess.fork(entry, [], {
      serviceName: SERVICE,
      stdio: 'pipe',
      env: { ...process.env, ...env },
    });
    let gone: Details | undefined;
    const onGone = (_e: unknown, d: Details) => {
      // The fork's serviceName is the gone process's `name` (`serviceName` there is Chromium's own).
      if (d.type === 'Utility' && d.name === SERVICE) gone = d;
    };
    app.on('child-process-gone', onGone);
    let ended = false;
    const exits: ((code: number | null, signal: string | null) => void)[] = [];
    child.once('exit', (code) =>
      setTimeout(() => {
        app.off('child-process-gone', onGone);
        if (ended) return;
        ended = true;
        const signal = gone ? (SIGNAL_OF[gone.reason] ?? null) : null;
        for (const fn of exits) fn(signal ? null : (gone?.exitCode ?? code), signal);
      }, 50),
    );
    child.stdout?.resume();
    return {
      get pid() {
        return child.pid;
      },
      send: (msg) => child.postMessage(msg),
      onMessage: (fn) => void child.on('message', fn),
      onStderr: (fn) => {
        if (child.stderr) createInterface({ input: child.stderr }).on('line', fn);
      },
      onExit: (fn) => void exits.push(fn),
      kill: () => void child.kill(),
    };
  };
}
