// How the engine host ended, in words: the exit codes and signals llama.cpp's failures show up as on each platform.

const WINDOWS: Record<number, string> = {
  0xc0000005: 'an access violation (0xC0000005)',
  // What GGML_ASSERT and other fail-fast stops become on Windows (ollama#11418).
  0xc0000409: 'llama.cpp aborted (0xC0000409)',
  0xc00000fd: 'a stack overflow (0xC00000FD)',
  0xc0000017: 'out of memory (0xC0000017)',
};

const SIGNALS: Record<string, string> = {
  SIGABRT: 'llama.cpp aborted',
  SIGSEGV: 'a segmentation fault',
  SIGBUS: 'a bus error',
  SIGILL: 'an illegal instruction (a build for another CPU?)',
  SIGFPE: 'an arithmetic fault',
  SIGKILL: 'it was killed, likely out of memory',
  // Chromium's allocator traps on an allocation it refuses (LM Studio's exit 133, lmstudio-bug-tracker#285).
  SIGTRAP: 'a refused memory allocation (SIGTRAP)',
};

/** 128 + n, as a shell reports a process a signal ended. */
const SHELL_CODES: Record<number, string> = {
  134: 'SIGABRT',
  139: 'SIGSEGV',
  137: 'SIGKILL',
  133: 'SIGTRAP',
  135: 'SIGBUS',
};

/** The cause of an unexpected end, for "The built-in engine stopped (<this>)". */
export function exitReason(code: number | null, signal: string | null): string {
  if (signal) return SIGNALS[signal] ?? `it was stopped by ${signal}`;
  if (code === null) return 'it ended for no reason it gave';
  // Node gives Windows' NTSTATUS codes signed; LM Studio prints them as unsigned 64-bit numbers.
  const unsigned = code >>> 0;
  if (WINDOWS[unsigned]) return WINDOWS[unsigned];
  const shell = SHELL_CODES[code];
  if (shell) return SIGNALS[shell];
  if (unsigned > 0xffff) return `exit code 0x${unsigned.toString(16).toUpperCase()}`;
  return `exit code ${code}`;
}

/** llama.cpp's most telling recent line: an assert or error where there is one, else the last. */
export function tellingLine(lines: readonly string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--)
    if (/GGML_ASSERT|error|failed|abort|out of memory|exception/i.test(lines[i])) return clean(lines[i]);
  const last = lines.at(-1);
  return last ? clean(last) : undefined;
}

/** Without the source path llama.cpp prefixes (`/build/…/ggml.c:1234: `) and capped for a sentence. */
function clean(line: string): string {
  const text = line.replace(/^\S*\.(c|cc|cpp|h|m):\d+:\s*/, '').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
