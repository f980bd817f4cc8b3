import { describe, expect, it } from 'vitest';
import {
  bypassed,
  envProxies,
  envProxyFor,
  fromPac,
  parseProxy,
  proxyPasswords,
} from '../../electron/main/services/net/proxy-rules';
import { Network } from '../../electron/main/services/net/network';
import { createLogger } from '../../electron/main/services/log';

const u = (s: string) => new URL(s);

describe('proxy rules', () => {
  it('NO_PROXY as curl and undici read it: domains with their subdomains, a leading dot or *., ports, addresses, *', () => {
    const list = '.corp.example, intranet:8080 10.0.0.5,*.internal.test, [fd00::1]';
    expect(bypassed(u('https://git.corp.example/x'), list)).toBe(true);
    expect(bypassed(u('https://corp.example/'), list)).toBe(true);
    expect(bypassed(u('https://notcorp.example/'), list)).toBe(false);
    expect(bypassed(u('http://intranet:8080/'), list)).toBe(true);
    expect(bypassed(u('http://intranet:9090/'), list)).toBe(false);
    expect(bypassed(u('http://10.0.0.5/'), list)).toBe(true);
    expect(bypassed(u('http://10.0.0.50/'), list)).toBe(false);
    expect(bypassed(u('https://a.b.internal.test/'), list)).toBe(true);
    expect(bypassed(u('http://[fd00::1]:3000/'), list)).toBe(true);
    expect(bypassed(u('https://huggingface.co/'), list)).toBe(false);
    expect(bypassed(u('https://huggingface.co/'), '*')).toBe(true);
    expect(bypassed(u('https://huggingface.co/'), '')).toBe(false);
  });

  it('reads the environment lowercase first, then uppercase; https by HTTPS_PROXY, http by HTTP_PROXY, ALL_PROXY for both', () => {
    const env = envProxies({
      HTTPS_PROXY: 'http://a:1',
      https_proxy: 'http://b:2',
      HTTP_PROXY: 'http://c:3',
      ALL_PROXY: 'http://d:4',
      no_proxy: '.x',
    });
    expect(envProxyFor(env, 'https:')).toEqual({ name: 'https_proxy', value: 'http://b:2' });
    expect(envProxyFor(env, 'http:')).toEqual({ name: 'HTTP_PROXY', value: 'http://c:3' });
    expect(envProxyFor(envProxies({ ALL_PROXY: 'http://d:4' }), 'https:')).toEqual({
      name: 'ALL_PROXY',
      value: 'http://d:4',
    });
    expect(env.noProxy).toBe('.x');
  });

  it('takes http(s) proxy addresses, a bare host:port as http://; refuses the rest in words, never repeating a password', () => {
    expect(parseProxy('proxy.corp:3128', 'HTTPS_PROXY').href).toBe('http://proxy.corp:3128/');
    expect(parseProxy('https://u:p@proxy.corp', 'X').password).toBe('p');
    expect(() => parseProxy('socks5://h:1080', 'ALL_PROXY')).toThrow(/ALL_PROXY names a SOCKS proxy/);
    expect(() => parseProxy('ftp://h:21', 'X')).toThrow(/must start with http:\/\/ or https:\/\//);
    expect(() => parseProxy('http://h:8080/pac.js', 'X')).toThrow(/a proxy address, not a page/);
    const e = (() => {
      try {
        parseProxy('http://alice:hunter2@[oops', 'The proxy');
      } catch (err) {
        return err as Error;
      }
    })();
    expect(e?.message).toContain('is not a proxy address');
    expect(e?.message).not.toContain('hunter2');
  });

  it('the passwords in proxy addresses are known secrets (the log masks them), encoded and decoded', () => {
    expect(
      proxyPasswords({ HTTPS_PROXY: 'http://bob:p%40ss@p:1', HTTP_PROXY: 'http://p:2' }, 'http://al:hunter22@q:3'),
    ).toEqual(['p@ss', 'p%40ss', 'hunter22', 'hunter22']);
  });

  it('reads a PAC answer: the first HTTP(S) proxy, DIRECT as none, SOCKS passed over', () => {
    expect(fromPac('PROXY proxy.corp:8080; DIRECT')).toEqual({ url: 'http://proxy.corp:8080' });
    expect(fromPac('HTTPS secure.corp:443')).toEqual({ url: 'https://secure.corp:443' });
    expect(fromPac('DIRECT')).toEqual({});
    expect(fromPac('SOCKS5 s:1080; PROXY p:3128')).toEqual({ url: 'http://p:3128', skipped: 'SOCKS5 s:1080' });
  });

  it('the desktop system proxy applies below Settings and the environment, once per origin, and never to loopback', async () => {
    const asked: string[] = [];
    let manual: string | undefined;
    const net = new Network({
      env: {},
      settings: () => ({ proxy: manual, noProxy: '', caFile: '' }),
      systemProxy: async (url) => {
        asked.push(url);
        return url.includes('intranet') ? 'DIRECT' : 'PROXY sys.corp:8080; DIRECT';
      },
      log: createLogger({ minLevel: 'error' }),
    });
    try {
      expect(await net.route(u('https://huggingface.co/api/models'))).toMatchObject({
        via: 'proxy',
        shown: 'http://sys.corp:8080',
        source: 'system',
      });
      await net.route(u('https://huggingface.co/other'));
      expect(asked).toEqual(['https://huggingface.co/api/models']);
      expect(await net.route(u('https://intranet.corp/'))).toEqual({ via: 'direct', why: 'no-proxy' });
      expect(await net.route(u('http://localhost:11434/api/tags'))).toEqual({ via: 'direct', why: 'loopback' });
      expect(await net.route(u('http://127.8.9.10/'))).toEqual({ via: 'direct', why: 'loopback' });
      manual = 'http://mine:3128';
      expect(await net.route(u('https://huggingface.co/'))).toMatchObject({ via: 'proxy', source: 'settings' });
    } finally {
      await net.close();
    }
  });
});
