import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import tls from 'node:tls';
import { AppError } from '@shared/errors';

type Env = Record<string, string | undefined>;

/** Node 22.15+ (and Electron 45's Node 24) read the OS trust store and NODE_EXTRA_CA_CERTS from code; Node 20 cannot. */
type GetCa = (type: 'default' | 'system' | 'bundled' | 'extra') => string[];
const getCa = (tls as unknown as { getCACertificates?: GetCa }).getCACertificates;

/** Far above any real CA bundle (the whole public root set is about 200 KB). */
const MAX_PEM_BYTES = 4 * 1024 * 1024;

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** What each source of trust adds: shown in Settings → Network. */
export interface TrustSources {
  /** Certificates from the OS trust store; undefined where this Node cannot read it. */
  system?: number;
  /** NODE_EXTRA_CA_CERTS: its file and how many certificates it holds (or why it could not be read). */
  envFile?: { path: string; count?: number; error?: string };
  /** The Settings → Network file. */
  settingsFile?: { path: string; count?: number; error?: string };
}

/**
 * The certificates of a PEM file, or an error in words: a file that is missing, unreadable, or holds no certificate
 * (a key, a DER file, a text) is refused before anything is sent with it.
 */
export function readPemFile(path: string, what: string): string[] {
  let text: string;
  try {
    // Read on main when a setting changes: a device, a folder or a file far larger than any CA bundle is refused
    // before a byte is read (a bundle of every public root is about 200 KB).
    const st = statSync(path);
    if (!st.isFile())
      throw new AppError('invalid_input', `${what} ${path} is not a file: give the path of a .pem or .crt file.`);
    if (st.size > MAX_PEM_BYTES)
      throw new AppError(
        'invalid_input',
        `${what} ${path} is ${Math.round(st.size / 1024 / 1024)} MB: a certificate file is a few KB, so this is not one.`,
      );
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof AppError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new AppError(
      'invalid_input',
      code === 'ENOENT'
        ? `${what} ${path} does not exist: give the full path of the company's CA certificate (a .pem or .crt file).`
        : `${what} ${path} cannot be read (${code ?? 'error'}): check its permissions.`,
    );
  }
  const certs = text.match(PEM_BLOCK) ?? [];
  if (!certs.length)
    throw new AppError(
      'invalid_input',
      `${what} ${path} holds no PEM certificate (no “-----BEGIN CERTIFICATE-----” block): export the company's CA as Base-64 (PEM), not DER or a key.`,
    );
  for (const pem of certs) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new AppError(
        'invalid_input',
        `${what} ${path} has a certificate block that does not parse: export it again as PEM.`,
      );
    }
  }
  return certs;
}

/**
 * The certificate authorities outbound TLS trusts: Node's bundled roots, the OS store where this Node can read it,
 * NODE_EXTRA_CA_CERTS, and the extra PEM file from Settings. Undefined when nothing is added to Node's own default
 * (which already holds NODE_EXTRA_CA_CERTS), so the usual case builds no list. There is no switch that turns checks off.
 */
export function trustedCas(env: Env, settingsFile: string): { ca?: string[]; sources: TrustSources } {
  const sources: TrustSources = {};
  const system = getCa?.('system');
  if (system) sources.system = system.length;
  const envPath = env.NODE_EXTRA_CA_CERTS?.trim();
  let envCerts: string[] = [];
  if (envPath) {
    try {
      envCerts = readPemFile(envPath, 'NODE_EXTRA_CA_CERTS');
      sources.envFile = { path: envPath, count: envCerts.length };
    } catch (e) {
      sources.envFile = { path: envPath, error: (e as Error).message };
    }
  }
  let own: string[] = [];
  if (settingsFile.trim()) {
    const path = settingsFile.trim();
    try {
      own = readPemFile(path, 'The extra certificates file');
      sources.settingsFile = { path, count: own.length };
    } catch (e) {
      sources.settingsFile = { path, error: (e as Error).message };
    }
  }
  // NODE_EXTRA_CA_CERTS is in Node's default only when set at launch: HubDesk's own env (tests, the CLI) may set it later.
  if (!system?.length && !own.length && !envCerts.length) return { sources };
  return { ca: [...new Set([...tls.rootCertificates, ...(system ?? []), ...envCerts, ...own])], sources };
}
