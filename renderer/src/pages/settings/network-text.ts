import type { ConnectionTest, NetworkRoute, NetworkStatus } from '@shared/contract/network';
import { plural } from '@shared/plural';

const sourceWords = { settings: 'Settings', environment: 'the environment', system: 'the system' } as const;

/**
 * The environment variable a proxy for `url` comes from, as main reads them: https_proxy for https://, http_proxy
 * for http://, all_proxy for either when that one is not set (lowercase or uppercase, as set).
 */
function envVariableFor(url: string, environment: NetworkStatus['environment']): string | undefined {
  const scheme = url.toLowerCase().startsWith('https:') ? 'https_proxy' : 'http_proxy';
  const names = environment.map((v) => v.name);
  return names.find((n) => n.toLowerCase() === scheme) ?? names.find((n) => n.toLowerCase() === 'all_proxy');
}

/** "Direct (no proxy set)", or "Through http://proxy:8080 — from the environment (HTTPS_PROXY)". */
export function routeLine(route: NetworkRoute, url: string, environment: NetworkStatus['environment']): string {
  if (route.via === 'direct')
    return route.why === 'bypass'
      ? 'Direct (bypassed)'
      : route.why === 'loopback'
        ? 'Direct (this computer)'
        : 'Direct (no proxy set)';
  const variable = route.source === 'environment' ? envVariableFor(url, environment) : undefined;
  return `Through ${route.proxy} — from ${sourceWords[route.source]}${variable ? ` (${variable})` : ''}`;
}

/** A test's route, short: "direct", or "through http://proxy:8080 (environment)". */
export function testRouteWords(route: NetworkRoute): string {
  if (route.via === 'direct') return route.why === 'bypass' ? 'direct (bypassed)' : 'direct';
  return `through ${route.proxy} (${route.source})`;
}

/** "OK", "Connected" (the server answered with an error status: the network part works), or "Failed". */
export function testVerdict(t: ConnectionTest): string {
  if (!t.ok) return 'Failed';
  return t.status !== undefined && t.status >= 400 ? 'Connected' : 'OK';
}

export const certificates = (n: number) => plural(n, 'certificate');

/** The OS trust store's line: its count, or why this Node cannot read it. */
export function systemStoreLine(trust: NetworkStatus['trust']): string {
  return trust.system !== undefined
    ? `System store: ${certificates(trust.system)}`
    : `System store: not readable by Node ${trust.node} (needs Node 22.15+; the desktop app reads it)`;
}
