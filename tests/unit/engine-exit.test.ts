import { describe, expect, it } from 'vitest';
import { exitReason, tellingLine } from '../../electron/main/services/local/host/exit';

describe("the engine host's end, in words", () => {
  it('names the signals and exit codes llama.cpp failures show up as, on each platform', () => {
    expect(exitReason(null, 'SIGABRT')).toBe('llama.cpp aborted');
    expect(exitReason(134, null)).toBe('llama.cpp aborted');
    expect(exitReason(null, 'SIGSEGV')).toBe('a segmentation fault');
    expect(exitReason(139, null)).toBe('a segmentation fault');
    expect(exitReason(null, 'SIGKILL')).toBe('it was killed, likely out of memory');
    expect(exitReason(137, null)).toBe('it was killed, likely out of memory');
    expect(exitReason(133, null)).toBe('a refused memory allocation (SIGTRAP)');
    // Windows' NTSTATUS codes: Node gives them signed, LM Studio prints them unsigned.
    expect(exitReason(-1073741819, null)).toBe('an access violation (0xC0000005)');
    expect(exitReason(3221225477, null)).toBe('an access violation (0xC0000005)');
    expect(exitReason(-1073740791, null)).toBe('llama.cpp aborted (0xC0000409)');
    expect(exitReason(-1073741510, null)).toBe('exit code 0xC000013A');
    expect(exitReason(3, null)).toBe('exit code 3');
    expect(exitReason(null, 'SIGHUP')).toBe('it was stopped by SIGHUP');
  });

  it("takes llama.cpp's assert or error line over the lines after it, without the source path", () => {
    expect(
      tellingLine([
        'llama_model_load: loaded meta data',
        '/home/runner/work/llama.cpp/ggml/src/ggml.c:1653: GGML_ASSERT(n_dims % 2 == 0) failed',
        'some trailing line',
      ]),
    ).toBe('GGML_ASSERT(n_dims % 2 == 0) failed');
    expect(tellingLine(['one', 'two'])).toBe('two');
    expect(tellingLine([])).toBeUndefined();
    expect(tellingLine([`error: ${'x'.repeat(400)}`])!.length).toBe(300);
  });
});
