// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpConfigView, McpServersView } from '@shared/contract/mcp';

/** main as the Tools screen sees it: mcp.json at a revision, and calls whose answers the test releases. */
const main = vi.hoisted(() => ({
  revision: 1,
  text: '{}',
  saveGate: undefined as Promise<void> | undefined,
  calls: [] as string[],
}));
vi.mock('../../renderer/src/api', () => {
  const view = (): McpConfigView => ({
    text: main.text,
    servers: [],
    errors: [],
    saved: true,
    persistentSecrets: true,
    revision: main.revision,
  });
  return {
    api: {
      call: async (name: string, input: { text?: string }) => {
        main.calls.push(name);
        if (name === 'mcp.config.get') return view();
        if (name === 'mcp.servers') return { revision: main.revision, servers: [] } satisfies McpServersView;
        if (name === 'mcp.config.save') {
          // The file is written (the revision moves) before the answer reaches the page.
          main.revision++;
          main.text = input.text ?? '';
          await main.saveGate;
          return view();
        }
        throw new Error(`unexpected call ${name}`);
      },
    },
  };
});
const { useMcp } = await import('../../renderer/src/hooks/mcp');

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  Object.assign(main, { revision: 1, text: '{}', saveGate: undefined, calls: [] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useMcp: the Tools screen’s config state', () => {
  it('a save whose revision the status poll sees first is not taken for an edit on disk', async () => {
    const { result } = renderHook(() => useMcp());
    await waitFor(() => expect(result.current.config?.revision).toBe(1));
    act(() => result.current.setDraft('{"mcpServers":{}}'));
    let release!: () => void;
    main.saveGate = new Promise<void>((r) => (release = r));
    let saved!: Promise<boolean>;
    act(() => void (saved = result.current.save()));
    // The poll runs while the save's answer is held back: it sees revision 2 with the editor still dirty.
    await act(async () => void (await vi.advanceTimersByTimeAsync(2_500)));
    expect(main.calls.filter((c) => c === 'mcp.servers').length).toBeGreaterThanOrEqual(2);
    expect(result.current.notice).toBeUndefined();
    release();
    await act(async () => void (await saved));
    expect(result.current.notice).toEqual({ kind: 'ok', text: 'Saved mcp.json.' });
    await act(async () => void (await vi.advanceTimersByTimeAsync(2_500)));
    expect(result.current.notice).toEqual({ kind: 'ok', text: 'Saved mcp.json.' });
    expect(result.current.dirty).toBe(false);
  });

  it('an edit on disk while the user edits is reported, not loaded over their text', async () => {
    const { result } = renderHook(() => useMcp());
    await waitFor(() => expect(result.current.config?.revision).toBe(1));
    act(() => result.current.setDraft('{"mine": true}'));
    main.revision = 5;
    main.text = '{"theirs": true}';
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_500)));
    expect(result.current.notice?.text).toMatch(/changed outside this editor/);
    expect(result.current.draft).toBe('{"mine": true}');
  });

  it('an edit on disk with nothing typed is loaded', async () => {
    const { result } = renderHook(() => useMcp());
    await waitFor(() => expect(result.current.config?.revision).toBe(1));
    main.revision = 7;
    main.text = '{"theirs": true}';
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_500)));
    await waitFor(() => expect(result.current.draft).toBe('{"theirs": true}'));
    expect(result.current.notice).toBeUndefined();
  });
});
