import { describe, expect, it } from 'vitest';
import { parseProxy, shownProxy } from '../../electron/main/services/net/proxy-rules';

describe('a proxy address as Settings → Network shows it', () => {
  it('hides the password with a readable mask (not percent-encoded), and keeps the rest as written', () => {
    const shown = shownProxy(parseProxy('http://alice:s3cr3t@127.0.0.1:3128', 'test'));
    expect(shown).toBe('http://alice:•••@127.0.0.1:3128');
    expect(shownProxy(parseProxy('https://proxy.corp.example:8443/', 'test'))).toBe('https://proxy.corp.example:8443');
    expect(shownProxy(parseProxy('proxy:8080', 'test'))).toBe('http://proxy:8080');
    expect(shownProxy(parseProxy('http://bob@proxy:8080', 'test'))).toBe('http://bob@proxy:8080');
  });
});
