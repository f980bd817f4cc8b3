import { AppError } from '@shared/errors';

/**
 * The one parser for every server address the user or the environment gives main (Ollama host, Hub endpoint,
 * inference router, fal REST base). It runs once, in main: what it returns is what services call.
 */
interface Endpoint {
  /** `scheme://host[:port]`, lower-cased, as browsers and fetch compare origins. */
  origin: string;
  /** The origin plus the path without trailing slashes: the value stored in settings. */
  href: string;
  /** The host name without brackets or a trailing dot (`127.0.0.1`, `::1`, `huggingface.co`). */
  host: string;
  loopback: boolean;
}

/** Names that resolve to a cloud provider's instance metadata service. */
const metadataNames = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);

type V4 = [number, number, number, number];

function ipv4(host: string): V4 | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number) as V4;
  return parts.every((n) => n <= 255) ? parts : undefined;
}

/** The 8 groups of an IPv6 address as the WHATWG URL parser prints it (compressed, lower-case hex). */
function ipv6Groups(host: string): number[] | undefined {
  if (!host.includes(':')) return undefined;
  const [head, tail] = host.split('::');
  if (host.split('::').length > 2) return undefined;
  const hs = head ? head.split(':') : [];
  const ts = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - hs.length - ts.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const all = [...hs, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...ts];
  const groups = all.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.some(Number.isNaN) ? undefined : groups;
}

/** The IPv4 address an IPv6 address stands for: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or NAT64. */
function embeddedV4(g: number[]): V4 | undefined {
  const v4 = (): V4 => [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4();
  if (zeros(6) && (g[6] !== 0 || g[7] > 1)) return v4();
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4();
  return undefined;
}

type Verdict = { loopback: boolean; refused?: string };

function classifyV4([a, b, c, d]: V4): Verdict {
  if (a === 127) return { loopback: true };
  if (a === 0) return { loopback: false, refused: `${a}.${b}.${c}.${d} is not an address a server can be reached at` };
  if (a === 169 && b === 254) return { loopback: false, refused: 'link-local and cloud metadata addresses' };
  if (a === 100 && b === 100 && c === 100 && d === 200) return { loopback: false, refused: 'cloud metadata addresses' };
  return { loopback: false };
}

function classify(host: string): Verdict {
  if (host === 'localhost' || host.endsWith('.localhost')) return { loopback: true };
  if (metadataNames.has(host)) return { loopback: false, refused: 'cloud metadata addresses' };
  const v4 = ipv4(host);
  if (v4) return classifyV4(v4);
  const g = ipv6Groups(host);
  if (!g) return { loopback: false };
  if (g.every((x) => x === 0)) return { loopback: false, refused: ':: is not an address a server can be reached at' };
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return { loopback: true };
  const mapped = embeddedV4(g);
  if (mapped) return classifyV4(mapped);
  if ((g[0] & 0xffc0) === 0xfe80) return { loopback: false, refused: 'link-local addresses' };
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254)
    return { loopback: false, refused: 'cloud metadata addresses' };
  return { loopback: false };
}

function invalid(what: string, why: string): AppError {
  return new AppError('invalid_input', `${what}: ${why}`);
}

/**
 * Parses a server address, or throws `invalid_input` saying why not. Loopback is recognised in every spelling
 * (`localhost.`, `127.1`, `0x7f.1`, `[::1]`, `[::ffff:127.0.0.1]`); link-local, metadata and unspecified
 * (`0.0.0.0`, `[::]`) addresses are refused, in whatever form they are written.
 */
export function parseEndpoint(raw: string, what = 'Server address'): Endpoint {
  const text = String(raw).trim();
  if (!text) throw invalid(what, 'it is empty.');
  if (text.length > 2048) throw invalid(what, 'it is too long.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(what, `"${text.slice(0, 80)}" is not a URL (expected e.g. https://example.com).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(what, 'only http and https are supported.');
  if (url.username || url.password) throw invalid(what, 'user names and passwords in the URL are not supported.');
  if (url.search || url.hash) throw invalid(what, 'a server address has no query or fragment.');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!host) throw invalid(what, 'it has no host.');
  const verdict = classify(host);
  if (verdict.refused) throw invalid(what, `${url.host} is refused (${verdict.refused}).`);
  const origin = `${url.protocol}//${url.host}`;
  return { origin, href: origin + url.pathname.replace(/\/+$/, ''), host, loopback: verdict.loopback };
}

/** The origin of a URL a service is about to call, or undefined when it does not parse or is refused. */
export function originOf(raw: string): string | undefined {
  try {
    return parseEndpoint(raw).origin;
  } catch {
    return undefined;
  }
}

/** Whether a host name (as in a URL, brackets allowed) is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return classify(
    hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, ''),
  ).loopback;
}
