import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { Logger } from '../log';
import {
  bypassed,
  envProxies,
  envProxyFor,
  fromPac,
  isLoopbackUrl,
  parseProxy,
  shownProxy,
  shownText,
  type ProxySource,
  type Route,
} from './proxy-rules';
import type { ConnectionTest, NetworkStatus } from '@shared/contract/network';
import { toAppError } from '@shared/errors';
import { shownRoute, testConnection } from './connection-test';
import { trustedCas, type TrustSources } from './trust';
import { proxyFailure } from './proxy-failure';

type Env = Record<string, string | undefined>;

/** What Settings → Network holds: the manual proxy (a secret: it may carry a password), a bypass list, a PEM file. */
export interface NetworkSettings {
  proxy?: string;
  noProxy: string;
  caFile: string;
}

export interface NetworkOptions {
  env: Env;
  settings: () => NetworkSettings;
  /** Desktop: the system's proxy for a URL (Electron's `session.resolveProxy`, PAC included): "PROXY h:p; DIRECT". */
  systemProxy?: (url: string) => Promise<string>;
  log: Logger;
}

/** The dispatchers of one configuration: rebuilt (the old ones drained) when Settings or trust change. */
interface Built {
  key: string;
  ca?: string[];
  trust: TrustSources;
  direct: Agent;
  proxies: Map<string, ProxyAgent>;
}

/** The system proxy is asked once per origin a minute: PAC evaluation is not free, and answers rarely change. */
const SYSTEM_TTL_MS = 60_000;

/**
 * Every outbound call HubDesk makes goes through `fetch` here (the key-bound fetches sit on top of it): the proxy
 * from Settings, else the environment (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY, either case), else the system's
 * (desktop); loopback always direct; TLS trusting Node's roots, the OS store where Node can read it,
 * NODE_EXTRA_CA_CERTS and the Settings file. undici's own fetch carries it, on every Node the app supports (Node 20
 * has no built-in proxy support, and undici's dispatchers do not mix with Node's built-in fetch).
 */
export class Network {
  private built?: Built;
  private readonly system = new Map<string, { at: number; answer: string }>();

  constructor(private readonly opts: NetworkOptions) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const req = requestOf(input, init);
    const route = await this.route(req.url);
    try {
      const res = await undiciFetch(req.url, { ...req.init, dispatcher: this.dispatcher(route) } as never);
      return res as unknown as Response;
    } catch (e) {
      throw withHost(proxyFailure(e, route), req.url.host);
    }
  };

  /** The route a request to `url` takes now; a malformed proxy setting is an error in words, never a silent direct. */
  async route(url: URL): Promise<Route> {
    if (isLoopbackUrl(url)) return { via: 'direct', why: 'loopback' };
    const s = this.opts.settings();
    const env = envProxies(this.opts.env);
    const bypass = `${s.noProxy},${env.noProxy}`;
    const chosen = await this.choose(url, s, env);
    if (!chosen) return { via: 'direct', why: 'no-proxy' };
    if (bypassed(url, bypass)) return { via: 'direct', why: 'bypass' };
    return { via: 'proxy', proxy: chosen.url, shown: shownProxy(chosen.url), source: chosen.source };
  }

  /** Settings → Network: the Hub's route now, every place a proxy can come from, and what TLS trusts. */
  async status(hubUrl: string): Promise<NetworkStatus> {
    const { trust } = this.current(true);
    const hub: NetworkStatus['hub'] = { url: hubUrl };
    try {
      hub.route = shownRoute(await this.route(new URL(hubUrl)));
    } catch (e) {
      hub.error = (e as Error).message;
    }
    const env = envProxies(this.opts.env);
    const manual = this.opts.settings().proxy?.trim();
    return {
      hub,
      manual: manual ? shownText(manual) : undefined,
      environment: [env.https, env.http, env.all]
        .filter((v) => v !== undefined)
        .map((v) => ({ name: v.name, value: shownText(v.value) }))
        .concat(env.noProxy ? [{ name: 'NO_PROXY', value: env.noProxy }] : []),
      system: !!this.opts.systemProxy,
      trust: { ...trust, node: process.versions.node },
    };
  }

  /** "Test connection": one request to `url` the way every call goes, on a fresh connection. */
  async test(url: URL): Promise<ConnectionTest> {
    let route: Route;
    try {
      route = await this.route(url);
    } catch (e) {
      return { url: url.href, ok: false, ms: 0, error: toAppError(e).toJSON() };
    }
    const { ca } = this.current(true);
    const dispatcher = route.via === 'direct' ? directAgent(ca) : proxyAgent(route.proxy, ca);
    try {
      return await testConnection(url, route, dispatcher);
    } finally {
      void dispatcher.close();
    }
  }

  /** Closes every connection (quitting). */
  async close(): Promise<void> {
    const b = this.built;
    this.built = undefined;
    if (b) await Promise.allSettled([b.direct.close(), ...[...b.proxies.values()].map((p) => p.close())]);
  }

  private async choose(
    url: URL,
    s: NetworkSettings,
    env: ReturnType<typeof envProxies>,
  ): Promise<{ url: URL; source: ProxySource } | undefined> {
    if (s.proxy?.trim()) return { url: parseProxy(s.proxy, 'The proxy in Settings → Network'), source: 'settings' };
    const fromEnv = envProxyFor(env, url.protocol);
    if (fromEnv) return { url: parseProxy(fromEnv.value, fromEnv.name), source: 'environment' };
    if (!this.opts.systemProxy) return undefined;
    const pac = fromPac(await this.systemAnswer(url));
    if (pac.skipped) this.opts.log.info('system proxy entry passed over', { entry: pac.skipped });
    return pac.url ? { url: parseProxy(pac.url, 'The system proxy'), source: 'system' } : undefined;
  }

  private async systemAnswer(url: URL): Promise<string> {
    const hit = this.system.get(url.origin);
    if (hit && Date.now() - hit.at < SYSTEM_TTL_MS) return hit.answer;
    let answer = 'DIRECT';
    try {
      answer = await this.opts.systemProxy!(url.href);
    } catch (e) {
      this.opts.log.warn('system proxy not resolved', { message: (e as Error).message });
    }
    this.system.set(url.origin, { at: Date.now(), answer });
    return answer;
  }

  private dispatcher(route: Route): Dispatcher {
    const b = this.current();
    if (route.via === 'direct') return b.direct;
    const key = route.proxy.href;
    let agent = b.proxies.get(key);
    if (!agent) b.proxies.set(key, (agent = proxyAgent(route.proxy, b.ca)));
    return agent;
  }

  /**
   * The dispatchers for the trust in force, built once per certificates setting: files are read then, not per
   * request. `refresh` (Settings → Network shown, a test) reads them again, so a replaced file counts.
   */
  private current(refresh = false): Built {
    const s = this.opts.settings();
    const key = JSON.stringify([s.caFile.trim(), this.opts.env.NODE_EXTRA_CA_CERTS ?? '']);
    if (this.built?.key === key && !refresh) return this.built;
    const { ca, sources } = trustedCas(this.opts.env, s.caFile);
    const old = this.built;
    // Read again but unchanged (Settings → Network shown, a test): the same dispatchers, their connections kept.
    if (old?.key === key && sameList(old.ca, ca)) return (this.built = { ...old, trust: sources });
    this.built = { key, ca, trust: sources, direct: directAgent(ca), proxies: new Map() };
    // Requests already under way finish on the old dispatchers.
    if (old) void Promise.allSettled([old.direct.close(), ...[...old.proxies.values()].map((p) => p.close())]);
    return this.built;
  }
}

const sameList = (a?: string[], b?: string[]) =>
  a === b || (!!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]));

const directAgent = (ca?: string[]) => new Agent(ca ? { connect: { ca } } : {});
/** Credentials in the proxy's URL become its Proxy-Authorization (undici reads them from the URI). */
const proxyAgent = (proxy: URL, ca?: string[]) =>
  new ProxyAgent({ uri: proxy.href, ...(ca ? { requestTls: { ca }, proxyTls: { ca } } : {}) });

/** A URL and init from fetch's arguments: a Request (the MCP SDK may pass one) is taken apart, body and all. */
function requestOf(input: Parameters<typeof fetch>[0], init: RequestInit = {}): { url: URL; init: RequestInit } {
  if (!(input instanceof Request)) return { url: new URL(String(input)), init };
  const { method, headers, signal, body } = input;
  return {
    url: new URL(input.url),
    init: { method, headers, signal, ...(body ? { body, duplex: 'half' } : {}), ...init } as RequestInit,
  };
}

/**
 * The host a failed request was for, on the error: after a redirect (the Hub to its CDN) the words name the host
 * that failed, not the one first asked.
 */
function withHost(e: unknown, host: string): unknown {
  if (e && typeof e === 'object' && !('requestHost' in e)) Object.defineProperty(e, 'requestHost', { value: host });
  return e;
}
