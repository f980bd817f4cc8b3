import { hostname, networkInterfaces } from 'node:os';

/**
 * This machine's IPv4 addresses on its networks (not loopback, not link-local 169.254/16, which a peer reaches only
 * by accident): what a LAN client dials when the server listens on 0.0.0.0 (IPv4 only, so IPv6 is not listed).
 * Read on each use: a laptop changes networks while the app runs.
 */
export function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? [])
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) out.push(a.address);
  return out;
}

/**
 * On the network, the Host values a request may carry besides 127.0.0.1 and localhost (DNS rebinding: a page on
 * evil.example rebinding its name to this machine still sends `Host: evil.example`): this machine's own IP literals
 * and its own names (`<hostname>`, `<hostname>.local` by mDNS), which no outside page can make its own.
 */
export function lanHosts(port: number): Set<string> {
  const host = hostname().toLowerCase();
  const names = [...lanAddresses()];
  if (host) names.push(host, host.endsWith('.local') ? host : `${host}.local`);
  return new Set(names.map((n) => `${n}:${port}`));
}
