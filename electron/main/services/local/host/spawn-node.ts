import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { AppError } from '@shared/errors';
import type { SpawnHost } from './protocol';

/**
 * The engine host as a Node child process (the web mode, the CLI, the tests): structured-clone IPC like Electron's
 * utilityProcess, stdin closed, stdout and stderr piped (llama.cpp's asserts are written to stderr before it aborts).
 */
export function nodeHost(entry: string): SpawnHost {
  return (env) => {
    // Said in words rather than as Node's "Cannot find module" from a child that exits at once.
    if (!existsSync(entry))
      throw new AppError('unavailable', `The built-in engine cannot start: its process's script ${entry} is missing.`);
    const child = fork(entry, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, ...env },
    });
    let ended = false;
    const exits: ((code: number | null, signal: string | null) => void)[] = [];
    const end = (code: number | null, signal: string | null) => {
      if (ended) return;
      ended = true;
      for (const fn of exits) fn(code, signal);
    };
    child.once('exit', (code, signal) => end(code, signal));
    // A fork that could not start (the entry missing) reports an error, and may never exit.
    child.once('error', () => setImmediate(() => end(child.exitCode ?? 1, null)));
    child.stdout?.resume();
    return {
      pid: child.pid,
      send: (msg) => {
        if (child.connected) child.send(msg);
      },
      onMessage: (fn) => child.on('message', fn),
      onStderr: (fn) => {
        if (child.stderr) createInterface({ input: child.stderr }).on('line', fn);
      },
      onExit: (fn) => void exits.push(fn),
      kill: () => void child.kill('SIGKILL'),
    };
  };
}
