// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpTool } from '@shared/contract/mcp';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { TryTool } = await import('../../renderer/src/pages/tools/TryTool');

const search: McpTool = {
  name: 'search',
  description: 'Searches the index.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for.' },
      sort: { type: 'string', enum: ['relevance', 'date'], default: 'relevance' },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      exact: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      filter: { type: 'object', properties: { lang: { type: 'string' } }, required: ['lang'] },
      choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['query'],
  },
};
const answered = (text: string) => ({
  server: 'idx',
  tool: 'search',
  content: [{ type: 'text', text }],
  isError: false,
  truncated: false,
  durationMs: 3,
});

beforeEach(() => main.reset());
afterEach(cleanup);

describe('TryTool: the form built from a tool’s input schema', () => {
  it('labels every field, marks the required ones, prefills defaults and sends typed arguments', async () => {
    render(<TryTool server="idx" tool={search} />);
    const query = screen.getByLabelText(/^query/);
    expect(query.getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('What to look for.').id).toBe(query.getAttribute('aria-describedby'));
    expect((screen.getByLabelText(/^sort/) as HTMLSelectElement).value).toBe('relevance');
    expect((screen.getByLabelText(/^limit/) as HTMLInputElement).value).toBe('10');
    expect(screen.getByText('From 1 to 50.')).toBeTruthy();
    expect(screen.getByText('One item per line.')).toBeTruthy();
    const filter = screen.getByRole('group', { name: /filter/ });
    expect(within(filter).getByText('Left empty, it is not sent.')).toBeTruthy();
    expect(screen.getByLabelText(/^choice/).tagName).toBe('TEXTAREA');

    await userEvent.type(query, 'llama');
    await userEvent.selectOptions(screen.getByLabelText(/^sort/), 'date');
    await userEvent.click(screen.getByLabelText(/^exact/));
    await userEvent.type(screen.getByLabelText(/^tags/), 'a{Enter}b');
    await userEvent.type(screen.getByLabelText(/^lang/), 'en');
    await userEvent.click(screen.getByRole('button', { name: 'Run search' }));
    const call = await main.stream('mcp.callTool');
    expect(call.input.arguments).toEqual({
      query: 'llama',
      sort: 'date',
      limit: 10,
      exact: true,
      tags: ['a', 'b'],
      filter: { lang: 'en' },
    });
    await call.end(answered('found 3'));
    expect(within(screen.getByTestId('mcp-result')).getByText('found 3')).toBeTruthy();
  });

  it('checks before the call: errors in words at each field, the first wrong one focused, nothing sent', async () => {
    render(<TryTool server="idx" tool={search} />);
    const limit = screen.getByLabelText(/^limit/);
    await userEvent.clear(limit);
    await userEvent.type(limit, '99');
    await userEvent.type(screen.getByLabelText(/^choice/), '{{');
    await userEvent.click(screen.getByRole('button', { name: 'Run search' }));
    // The optional "filter" left empty is not sent, so its required "lang" is not asked for.
    expect(screen.getByRole('alert').textContent).toBe('Not run: check query, limit, choice.');
    expect(document.activeElement).toBe(screen.getByLabelText(/^query/));
    expect(screen.getAllByText('Required: fill this in.')).toHaveLength(1);
    expect(screen.getByText('This must be at most 50.').id).toBe(`${limit.id}-error`);
    expect(limit.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/^Not valid JSON/)).toBeTruthy();
    expect(main.opened('mcp.callTool')).toHaveLength(0);
  });

  it('"Raw JSON" carries the arguments both ways and runs with Ctrl+Enter', async () => {
    render(<TryTool server="idx" tool={search} />);
    await userEvent.type(screen.getByLabelText(/^query/), 'q');
    const toggle = screen.getByRole('button', { name: 'Raw JSON' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const raw = screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement;
    expect(JSON.parse(raw.value)).toEqual({ query: 'q', sort: 'relevance', limit: 10 });

    // Broken JSON keeps the raw view, saying why.
    await userEvent.clear(raw);
    await userEvent.paste('{"limit": 5');
    await userEvent.click(toggle);
    expect(screen.getByRole('alert').textContent).toMatch(/^Fix the JSON to go back to the form/);
    // A required argument missing from raw JSON is refused before the call.
    await userEvent.type(raw, '}');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(screen.getByRole('alert').textContent).toBe('Not run: "query" is required.');

    await userEvent.clear(raw);
    await userEvent.paste('{"query": "from raw", "limit": 5, "tags": ["x"], "debug": true}');
    await userEvent.click(toggle);
    expect((screen.getByLabelText(/^query/) as HTMLInputElement).value).toBe('from raw');
    expect((screen.getByLabelText(/^limit/) as HTMLInputElement).value).toBe('5');
    expect((screen.getByLabelText(/^sort/) as HTMLSelectElement).value).toBe('');
    expect(screen.getByText('Also sent, from the raw JSON: debug.')).toBeTruthy();
    screen.getByLabelText(/^query/).focus();
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    const call = await main.stream('mcp.callTool');
    expect(call.input.arguments).toEqual({ debug: true, query: 'from raw', limit: 5, tags: ['x'] });
    await userEvent.keyboard('{Escape}');
    expect(call.cancelled).toBe(true);
    expect(await screen.findByText('Cancelled.')).toBeTruthy();
  });

  it('keeps the raw editor alone when the schema is beyond a form, and says so', () => {
    render(
      <TryTool
        server="idx"
        tool={{ name: 'pick', inputSchema: { oneOf: [{ type: 'object' }, { type: 'object' }] } }}
      />,
    );
    expect(screen.getByText(/The form cannot show this tool’s arguments/)).toBeTruthy();
    expect(screen.getByLabelText('Arguments (JSON)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Raw JSON' })).toBeNull();
  });
});
