// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThreadMenu } from '../../renderer/src/pages/chat/ThreadMenu';

afterEach(cleanup);

const setup = () => {
  const ran: string[] = [];
  const items = ['Open as code', 'Export .md', 'Export .json'].map((label) => ({
    label,
    run: vi.fn(() => void ran.push(label)),
  }));
  render(<ThreadMenu label="Export" items={items} />);
  return { ran, button: screen.getByRole('button', { name: 'Export' }) };
};
const focused = () => document.activeElement?.textContent;

describe('the chat header menu (a menu button)', () => {
  it('↓ opens on the first item, ↑/↓/Home/End move round, Escape closes onto the button', async () => {
    const user = userEvent.setup();
    const { button } = setup();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(button.getAttribute('aria-controls')!)?.getAttribute('role')).toBe('menu');
    expect(focused()).toBe('Open as code');
    await user.keyboard('{ArrowUp}');
    expect(focused()).toBe('Export .json');
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe('Open as code');
    await user.keyboard('{End}');
    expect(focused()).toBe('Export .json');
    await user.keyboard('{Home}{ArrowDown}');
    expect(focused()).toBe('Export .md');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('Enter runs the item and gives the focus back; ↑ opens on the last; a click away closes it', async () => {
    const user = userEvent.setup();
    const { ran, button } = setup();
    button.focus();
    await user.keyboard('{ArrowUp}');
    expect(focused()).toBe('Export .json');
    await user.keyboard('{Enter}');
    expect(ran).toEqual(['Export .json']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    await user.click(button);
    expect(screen.getAllByRole('menuitem')).toHaveLength(3);
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(ran).toEqual(['Export .json']);
  });

  it('skips a disabled item', async () => {
    const user = userEvent.setup();
    const run = vi.fn();
    render(
      <ThreadMenu
        label="Export"
        items={[
          { label: 'Open as code', disabled: true, run },
          { label: 'Export .md', run },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(focused()).toBe('Export .md');
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe('Export .md');
    expect(run).not.toHaveBeenCalled();
  });
});
