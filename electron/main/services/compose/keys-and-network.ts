import { join } from 'node:path';
import { envVar } from '@shared/environment';
import type { ServicesOptions } from '../app-services';
import { settingsFile } from '../data-dir';
import { createLogger } from '../log';
import { boundFetch } from '../net/bound-fetch';
import { KeyBindings, keyOfEndpoint } from '../net/key-bindings';
import { Network } from '../net/network';
import { proxyPasswords } from '../net/proxy-rules';
import { SecretStoreImpl } from '../secrets';
import { endpointsFromEnv, SettingsService } from '../settings';

/**
 * What every other service stands on: the secrets and the log that masks them, the settings, which key goes where,
 * and the network every outbound call goes out through, with the key-bound fetches on top of it.
 */
export function composeKeysAndNetwork(opts: ServicesOptions) {
  const env = opts.env ?? process.env;
  const secrets = new SecretStoreImpl(
    env,
    opts.cipher ? { file: join(opts.dataDir, 'secrets.json'), cipher: opts.cipher } : undefined,
  );
  // Secrets held by services built later (MCP's, the endpoints' keys) join the masked list when they exist.
  const later: (() => string[])[] = [];
  // Every secret main holds: masked in the log and in whatever a server answers.
  const knownSecrets = () => [
    ...secrets.values(),
    ...later.flatMap((f) => f()),
    ...proxyPasswords(env, secrets.get('proxy')),
  ];
  const log = createLogger({
    file: join(opts.dataDir, 'logs', 'hubdesk.log'),
    secrets: knownSecrets,
    echo: opts.logEcho,
  });
  // Each key goes only to the hosts it is bound to: its own service's, those set outside the page, approved ones.
  const webBaseVar = envVar('HUBDESK_OLLAMA_WEB_BASE');
  const webBase = () => opts.chat?.webBase ?? env[webBaseVar.name] ?? webBaseVar.default!;
  const keys = new KeyBindings({
    file: opts.approveHost ? join(opts.dataDir, 'key-approvals.json') : undefined,
    secrets,
    log,
    ask: opts.approveHost,
    trusted: [
      ...Object.entries(endpointsFromEnv(env)).map(([s, url]) => ({ key: keyOfEndpoint[s as 'hubEndpoint'], url })),
      { key: 'ollamaApiKey' as const, url: webBase() },
    ],
  });
  const settings = new SettingsService(settingsFile(opts.dataDir), env, secrets, log, keys);
  const network = new Network({
    env,
    settings: () => ({ proxy: secrets.get('proxy'), noProxy: settings.get().noProxy, caFile: settings.get().caFile }),
    systemProxy: opts.systemProxy,
    log,
  });
  // The only way a key goes onto the wire: to the hosts it is bound to, never after a redirect to another origin.
  const bound = { secrets: knownSecrets, base: network.fetch };
  return {
    env,
    secrets,
    knownSecrets,
    addSecrets: (f: () => string[]) => later.push(f),
    log,
    webBase,
    keys,
    settings,
    network,
    hfFetch: boundFetch('hfToken', keys, bound),
    ollamaKeyFetch: boundFetch('ollamaApiKey', keys, bound),
    falFetch: boundFetch('falKey', keys, bound),
  };
}

export type KeysAndNetwork = ReturnType<typeof composeKeysAndNetwork>;
