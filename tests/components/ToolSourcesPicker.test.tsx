// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WEB_TOOLS, type ConversationMeta, type ToolSource } from '@shared/contract/chat-conversation';
import { conversationMeta } from '../fixtures/conversation';

const main = vi.hoisted(() => ({ sources: [] as ToolSource[], fail: undefined as string | undefined, calls: 0 }));
vi.mock('../../renderer/src/api', () => ({
  api: {
    call: async (name: string) => {
      if (name !== 'chat.toolSources') throw new Error(`unexpected call ${name}`);
      main.calls++;
      if (main.fail) throw { code: 'unavailable', message: main.fail };
      return { sources: main.sources };
    },
  },
}));
const { ToolSourcesPicker } = await import('../../renderer/src/pages/chat/ToolSourcesPicker');

const meta = (patch: Partial<ConversationMeta> = {}): ConversationMeta =>
  conversationMeta({
    id: 'c_abc123',
    title: 'New chat',
    model: 'qwen3:8b',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    ...patch,
  });
const web: ToolSource = {
  id: WEB_TOOLS,
  label: 'Web search and fetch (ollama.com)',
  kind: 'builtin',
  state: 'ready',
  tools: [{ name: 'web_search' }, { name: 'web_fetch' }],
};
const calc: ToolSource = { id: 'calc', label: 'calc', kind: 'mcp', state: 'ready', tools: [{ name: 'add' }] };

beforeEach(() => Object.assign(main, { sources: [web, calc], fail: undefined, calls: 0 }));
afterEach(cleanup);

describe('ToolSourcesPicker: which tools a conversation offers', () => {
  it('lists every source with its tools; checking one saves the new list at once', async () => {
    const onSave = vi.fn();
    render(<ToolSourcesPicker meta={meta()} canCallTools onSave={onSave} />);
    await userEvent.click(screen.getByText('Tools'));
    const box = within(await screen.findByTestId('tool-source-calc')).getByRole('checkbox');
    expect(screen.getByText('ready · add')).toBeTruthy();
    await userEvent.click(box);
    expect(onSave).toHaveBeenLastCalledWith({ toolSources: ['calc'] });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Tools · 1')).toBeTruthy();
    await userEvent.click(within(screen.getByTestId(`tool-source-${WEB_TOOLS}`)).getByRole('checkbox'));
    expect(onSave).toHaveBeenLastCalledWith({ toolSources: ['calc', WEB_TOOLS] });
  });

  it('a source gone from mcp.json stays listed so it can be turned off; allowed tools can be forgotten', async () => {
    const onSave = vi.fn();
    render(
      <ToolSourcesPicker
        meta={meta({ toolSources: ['old-server'], toolsAllowed: ['calc/add'] })}
        canCallTools
        onSave={onSave}
      />,
    );
    await userEvent.click(screen.getByText('Tools · 1'));
    await screen.findByText('no longer in mcp.json');
    await userEvent.click(screen.getByRole('checkbox', { checked: true }));
    expect(onSave).toHaveBeenLastCalledWith({ toolSources: [] });
    expect(screen.getByTestId('tools-allowed').textContent).toMatch(/calc\/add/);
    await userEvent.click(screen.getByRole('button', { name: 'Ask again' }));
    expect(onSave).toHaveBeenLastCalledWith({ toolsAllowed: [] });
  });

  it('sources an imported file had on show off, "from the imported file", until the user turns one on', async () => {
    const onSave = vi.fn();
    render(<ToolSourcesPicker meta={meta({ importedToolSources: ['calc', 'gone'] })} canCallTools onSave={onSave} />);
    await userEvent.click(screen.getByText('Tools'));
    const row = await screen.findByTestId('tool-source-calc');
    const box = within(row).getByRole('checkbox') as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(row.textContent).toMatch(/off, from the imported file/);
    expect(screen.getByTestId(`tool-source-${WEB_TOOLS}`).textContent).not.toMatch(/imported/);
    expect(screen.getByText(/not in mcp\.json: gone/)).toBeTruthy();
    await userEvent.click(box);
    expect(onSave).toHaveBeenLastCalledWith({ toolSources: ['calc'] });
    expect(row.textContent).not.toMatch(/imported file/);
  });

  it('says when the model cannot call tools, when there are no MCP servers, and when listing fails (with Retry)', async () => {
    main.sources = [web];
    main.fail = 'Cannot start MCP.';
    render(<ToolSourcesPicker meta={meta({ model: 'llama3.2' })} canCallTools={false} onSave={vi.fn()} />);
    await userEvent.click(screen.getByText('Tools'));
    expect(screen.getByRole('note').textContent).toMatch(/llama3\.2 cannot call tools/);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Could not list the tool sources: Cannot start MCP\./,
    );
    main.fail = undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/No MCP servers yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add one in Tools' }).getAttribute('href')).toBe('#/tools');
  });

  it('Escape closes the panel and gives the focus back to its button', async () => {
    render(<ToolSourcesPicker meta={meta()} canCallTools onSave={vi.fn()} />);
    await userEvent.click(screen.getByText('Tools'));
    const box = within(await screen.findByTestId('tool-source-calc')).getByRole('checkbox');
    box.focus();
    await userEvent.keyboard('{Escape}');
    expect((screen.getByText('Tools').closest('details') as HTMLDetailsElement).open).toBe(false);
    expect(document.activeElement).toBe(screen.getByText('Tools'));
  });
});
