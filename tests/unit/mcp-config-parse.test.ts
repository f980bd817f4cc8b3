import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../electron/main/services/mcp/config';
import { JsonSyntaxError, lineColumn, parsePositioned, pathKey } from '../../electron/main/services/mcp/json-positions';
import { isMask, maskSecret } from '../../electron/main/services/mcp/secrets';
import { boundContent, RingLog, RESULT_TEXT_MAX } from '../../electron/main/services/mcp/results';

describe('positioned JSON parser', () => {
  const valid = [
    '{}',
    '[]',
    '  {"a": [1, -2.5e3, true, false, null, "x"]}  ',
    '{"esc": "q\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00", "nested": {"deep": [[{"k": {}}]]}}',
    '"just a string"',
    '0',
    '{"__proto__": {"polluted": true}, "constructor": 1}',
  ];
  it.each(valid)('reads %s exactly as JSON.parse does', (text) => {
    expect(parsePositioned(text).value).toEqual(JSON.parse(text));
  });

  it('does not let "__proto__" keys change the prototype', () => {
    const v = parsePositioned('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  const invalid: [string, RegExp, number][] = [
    ['{"a": 1,}', /trailing commas/, 8],
    ['[1, 2,]', /trailing commas/, 6],
    ['{"a" 1}', /Expected : after "a"/, 5],
    ['{"a": tru}', /Expected a value/, 6],
    ['{"a": "b\nc"}', /line break/, 8],
    ['{"a": 1} x', /after the end/, 9],
    ['{"a": "\\x"}', /Invalid escape/, 7],
    ['{"a": 01}', /Expected , or }/, 7],
    ['', /Expected a value, found the end/, 0],
    ['{"a": "open', /not closed/, 6],
  ];
  it.each(invalid)('rejects %j with a positioned message', (text, message, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    try {
      parsePositioned(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect((e as JsonSyntaxError).message).toMatch(message);
      expect((e as JsonSyntaxError).offset).toBe(offset);
    }
  });

  it('refuses duplicate keys, which JSON.parse would silently resolve to the last', () => {
    expect(() => parsePositioned('{"a": 1, "a": 2}')).toThrow(/Duplicate key "a"/);
  });

  it('records where each value and key starts', () => {
    const text = '{\n  "mcpServers": {\n    "x": { "env": { "K": "v" } }\n  }\n}';
    const { spans } = parsePositioned(text);
    const span = spans.get(pathKey(['mcpServers', 'x', 'env', 'K']))!;
    expect(text.slice(span.start, span.end)).toBe('"v"');
    expect(lineColumn(text, span.start)).toEqual({ line: 3, column: 26 });
    expect(lineColumn(text, span.keyStart!)).toEqual({ line: 3, column: 21 });
  });
});

describe('mcp.json parsing', () => {
  it('accepts the notations of Claude Desktop, Cursor, LM Studio and VS Code, with their hints', () => {
    const { servers, errors } = parseConfig(
      JSON.stringify({
        mcpServers: {
          a: { command: 'npx', args: ['-y', 'pkg'], env: { K: 'v' }, icon: '📝', autoApprove: [] },
          b: { url: 'https://h.test/mcp', headers: { Authorization: 'Bearer x' } },
          c: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
          d: { transport: 'streamable-http', url: 'https://h.test/mcp', disabled: true },
          e: { type: 'stdio', command: 'uvx' },
        },
      }),
    );
    expect(errors).toEqual([]);
    expect(servers.map((s) => `${s.name}:${s.transport}:${s.disabled}`)).toEqual([
      'a:stdio:false',
      'b:http:false',
      'c:sse:false',
      'd:http:true',
      'e:stdio:false',
    ]);
    expect(parseConfig('{"servers": {"x": {"command": "node"}}}').servers).toHaveLength(1);
  });

  it('explains what is wrong, where', () => {
    const cases: [unknown, RegExp][] = [
      [[], /Expected an object with "mcpServers"/],
      [{ mcpServers: [] }, /must be an object of named servers/],
      [{ mcpServers: { x: 'npx' } }, /must be an object with "command"/],
      [{ mcpServers: { x: { type: 'stdio', url: 'https://a.test' } } }, /says type "stdio" but has a "url"/],
      [{ mcpServers: { x: { command: 'a', env: { 'A=B': 'v' } } } }, /environment variable name/],
      [{ mcpServers: { x: { url: 'https://a.test', headers: { 'Bad Header': 'v' } } } }, /HTTP header name/],
      [{ mcpServers: { x: { command: '' } } }, /the program to run/],
      [{ mcpServers: { 'a\u0001b': { command: 'a' } } }, /no control characters/],
    ];
    for (const [value, message] of cases) {
      const { errors } = parseConfig(JSON.stringify(value, null, 2));
      expect(errors.map((e) => e.message).join('\n')).toMatch(message);
    }
  });
});

describe('secrets, results and logs stay bounded and masked', () => {
  it('masks secrets with at most their last four characters', () => {
    expect(maskSecret('sk-0123456789abcd')).toBe('•••• abcd');
    expect(maskSecret('short')).toBe('••••');
    expect(isMask('•••• abcd') && isMask('••••')).toBe(true);
    expect(isMask('••••x') || isMask('secret')).toBe(false);
  });

  it('cuts long text and drops oversized binaries with a note', () => {
    const { content, truncated } = boundContent([
      { type: 'text', text: 'a'.repeat(RESULT_TEXT_MAX + 10) },
      { type: 'text', text: 'after the limit' },
      { type: 'image', mimeType: 'image/png', data: 'A'.repeat(9 * 1024 * 1024) },
      { type: 'resource', resource: { uri: 'file:///x', text: 'r' } },
      { type: 'resource_link', uri: 'file:///y', name: 'y' },
    ]);
    expect(truncated).toBe(true);
    expect(content[0].type === 'text' && content[0].text).toMatch(/cut by HubDesk/);
    expect(content[1]).toEqual({ type: 'text', text: expect.stringMatching(/^\n… \[cut by HubDesk/) });
    expect(content[2]).toEqual({ type: 'text', text: '[image of 9.0 MB left out by HubDesk: too large]' });
    expect(content[3]).toMatchObject({ type: 'resource', uri: 'file:///x' });
    expect(content[4].type).toBe('other');
  });

  it('keeps only the last part of a log', () => {
    const log = new RingLog(10);
    log.append('0123456789');
    expect(log.read()).toEqual({ text: '0123456789', truncated: false });
    log.append('abc\n');
    expect(log.read()).toEqual({ text: '456789abc\n', truncated: true });
    expect(log.lastLine()).toBe('456789abc');
  });
});
