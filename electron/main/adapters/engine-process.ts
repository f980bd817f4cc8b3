import { createInterface } from 'node:readline';
import { utilityProcess } from 'electron';
import type { SpawnHost } from '../services/local/host/protocol';

/**
 * The engine host as an Electron utilityProcess (forked after `ready`: before it the fork fails, electron#44461).
 * Its stdio is piped, not inherited, so llama.cpp's assert lines reach the supervisor for the crash's details.
 */
export function utilityHost(entry: string): SpawnHost {
  return (env) => {
    const child = utilityProcess.fork(entry, [], {
      serviceName: 'HubDesk engine',
      stdio: 'pipe',
      env: { ...process.env, ...env },
    });
    let ended = false;
    const exits: ((code: number | null, signal: string | null) => void)[] = [];
    child.once('exit', (code) => {
      if (ended) return;
      ended = true;
      for (const fn of exits) fn(code, null);
    });
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
