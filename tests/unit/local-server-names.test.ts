import { describe, expect, it } from 'vitest';
import { normalizeOrigin } from '@shared/server-origin';
import { clientName } from '../../electron/main/services/local/server/client-name';

describe('the local server log: client names from User-Agent', () => {
  it.each([
    ['OpenAI/JS 6.9.1', 'OpenAI/JS 6.x'],
    ['OpenAI/Python 1.51.0', 'OpenAI/Python 1.x'],
    ['Anthropic/JS 0.60.0', 'Anthropic/JS 0.x'],
    ['curl/8.5.0', 'curl/8'],
    ['python-httpx/0.27.0', 'python-httpx'],
    ['python-requests/2.31.0', 'python-requests/2'],
    ['node', 'node'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
      'Chrome 140',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari 18',
    ],
    ['', 'unknown client'],
    [undefined, 'unknown client'],
  ])('%s → %s', (ua, name) => expect(clientName(ua)).toBe(name));
});

describe('the local server: allowlisted origins', () => {
  it.each([
    ['http://localhost:5173', 'http://localhost:5173'],
    [' HTTP://LocalHost:5173/ ', 'http://localhost:5173'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['chrome-extension://ABCDEF', 'chrome-extension://abcdef'],
  ])('%s is the origin %s', (text, origin) => expect(normalizeOrigin(text)).toBe(origin));

  it.each([
    '*',
    'null',
    'http://*.example.com',
    'localhost:5173',
    'http://a.example/path',
    'http://u@a.example',
    'file:///x',
    'ftp://a',
  ])('%s is refused', (text) => expect(normalizeOrigin(text)).toBeUndefined());
});
