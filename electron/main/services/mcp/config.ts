import { z } from 'zod';
import {
  mcpServerNameSchema,
  type McpConfigError,
  type McpServerConfigView,
  type McpTransport,
} from '@shared/contract/mcp';
import { JsonSyntaxError, lineColumn, parsePositioned, pathKey, type PositionedJson } from './json-positions';

/** One server entry as written in mcp.json; `env`/`headers` values may still be masks of stored secrets. */
export interface McpServerConfig {
  name: string;
  transport: McpTransport;
  disabled: boolean;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  env: Record<string, string>;
  headers: Record<string, string>;
}

export interface ParsedConfig {
  servers: McpServerConfig[];
  errors: McpConfigError[];
  json?: PositionedJson;
}

export const EMPTY_CONFIG = '{\n  "mcpServers": {}\n}\n';

// Hints other hosts write: Cursor/LM Studio `type`, Cline `transportType`, some `transport`.
const transportHint = z
  .enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'streamable_http', 'sse'])
  .transform((t): McpTransport => (t === 'stdio' || t === 'sse' ? t : 'http'));

const envName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^=\0]+$/, 'an environment variable name (no = or NUL)');
const headerName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'an HTTP header name');
const value = z
  .string()
  .max(16_384)
  .refine((s) => !s.includes('\0'), 'no NUL characters');

const common = {
  type: transportHint.optional(),
  transport: transportHint.optional(),
  transportType: transportHint.optional(),
  disabled: z.boolean().optional(),
};

const stdioEntry = z.object({
  ...common,
  command: z.string().trim().min(1, 'the program to run, e.g. "npx"').max(4096),
  args: z.array(z.string().max(16_384)).max(256).optional(),
  env: z.record(envName, value).optional(),
  cwd: z.string().max(4096).optional(),
});

const httpEntry = z.object({
  ...common,
  url: z
    .string()
    .trim()
    .max(4096)
    .refine((s) => /^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s), 'an http(s) URL such as https://host/mcp'),
  headers: z.record(headerName, value).optional(),
});

/** The notation Claude Desktop, Cursor and LM Studio use; `servers` is VS Code's name for the same map. */
function serversObject(root: unknown): { key: string; map: unknown } | undefined {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return undefined;
  const r = root as Record<string, unknown>;
  if ('mcpServers' in r) return { key: 'mcpServers', map: r.mcpServers };
  if ('servers' in r) return { key: 'servers', map: r.servers };
  return undefined;
}

function positionOf(text: string, json: PositionedJson, path: (string | number)[]): { line: number; column: number } {
  // The deepest path that exists: a missing key points at the object that lacks it.
  for (let n = path.length; n >= 0; n--) {
    const span = json.spans.get(pathKey(path.slice(0, n)));
    if (span) return lineColumn(text, n === path.length ? span.start : span.start);
  }
  return { line: 1, column: 1 };
}

/** Parses and validates mcp.json text; every error carries the line and column the editor marks. */
export function parseConfig(text: string): ParsedConfig {
  let json: PositionedJson;
  try {
    json = parsePositioned(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { servers: [], errors: [{ message: e.message, ...lineColumn(text, e.offset), path: [] }] };
  }
  const errors: McpConfigError[] = [];
  const err = (path: (string | number)[], message: string) =>
    errors.push({ message, ...positionOf(text, json, path), path: path.map(String) });
  const found = serversObject(json.value);
  if (!found) {
    err([], 'Expected an object with "mcpServers": { "<name>": { "command": … } | { "url": … } }');
    return { servers: [], errors, json };
  }
  const { key, map } = found;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    err([key], `"${key}" must be an object of named servers`);
    return { servers: [], errors, json };
  }
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(map as Record<string, unknown>)) {
    const at = [key, name];
    const nameOk = mcpServerNameSchema.safeParse(name);
    if (!nameOk.success) {
      err(at, `Server name "${name.slice(0, 40)}": ${nameOk.error.issues[0].message}`);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      err(at, `"${name}" must be an object with "command" (a local server) or "url" (a remote one)`);
      continue;
    }
    const e = entry as Record<string, unknown>;
    const hint = e.type ?? e.transport ?? e.transportType;
    const isHttp = 'url' in e || (!('command' in e) && (hint === 'sse' || hint === 'http'));
    if (!('url' in e) && !('command' in e)) {
      err(at, `"${name}" needs "command" (a local server) or "url" (a remote one)`);
      continue;
    }
    if ('url' in e && 'command' in e) {
      err(at, `"${name}" has both "command" and "url": keep one`);
      continue;
    }
    const parsed = (isHttp ? httpEntry : stdioEntry).safeParse(e);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 5)) {
        const p = [...at, ...issue.path.map((x) => (typeof x === 'symbol' ? String(x) : x))];
        // A bad record key (env/headers name) carries its own reason inside.
        const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
        err(p, `${p.slice(2).join('.') || name}: ${inner ?? issue.message}`);
      }
      continue;
    }
    const d = parsed.data as z.infer<typeof stdioEntry> & z.infer<typeof httpEntry>;
    const declared = d.type ?? d.transport ?? d.transportType;
    if (isHttp && declared === 'stdio') {
      err(at, `"${name}" says type "stdio" but has a "url"`);
      continue;
    }
    servers.push({
      name,
      transport: isHttp ? (declared === 'sse' ? 'sse' : 'http') : 'stdio',
      disabled: d.disabled ?? false,
      command: d.command,
      args: d.args,
      cwd: d.cwd,
      url: d.url,
      env: { ...(d.env ?? {}) },
      headers: { ...(d.headers ?? {}) },
    });
  }
  return { servers, errors, json };
}

export function serverView(s: McpServerConfig): McpServerConfigView {
  return {
    name: s.name,
    transport: s.transport,
    disabled: s.disabled,
    command: s.command,
    args: s.args,
    url: s.url,
    envKeys: Object.keys(s.env),
    headerKeys: Object.keys(s.headers),
  };
}

/** The key under which a secret value is stored: server, kind and variable name. */
export function secretKey(server: string, kind: 'env' | 'headers', key: string): string {
  return `${server}\0${kind}\0${key}`;
}

/** A stable fingerprint of what it takes to run a server, so a config reload restarts only the changed ones. */
export function fingerprint(s: McpServerConfig): string {
  return JSON.stringify([s.transport, s.disabled, s.command, s.args, s.cwd, s.url, s.env, s.headers]);
}
