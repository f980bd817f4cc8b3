import { join } from 'node:path';
import { fitHardware } from '@shared/fit';
import type { ServicesOptions } from '../app-services';
import { EndpointsService } from '../endpoints/service';
import { EndpointStore } from '../endpoints/store';
import { GgufHeaderReader } from '../fit/gguf-header';
import { HardwareService } from '../hardware/service';
import { HubClient } from '../hub/client';
import { HubService } from '../hub/service';
import { LocalService } from '../local/service';
import { ollamaModelDirs } from '../ollama/disk-check';
import { OllamaService } from '../ollama/service';
import type { KeysAndNetwork } from './keys-and-network';

/** Where models come from and run: the Hub, the user's endpoints, Ollama, the built-in engine and the hardware. */
export function composeModels(opts: ServicesOptions, base: KeysAndNetwork) {
  const { env, secrets, settings, keys, log, hfFetch } = base;
  const endpoints = new EndpointsService({
    store: new EndpointStore({
      file: join(opts.dataDir, 'endpoints.json'),
      keysFile: join(opts.dataDir, 'endpoint-keys.json'),
      cipher: opts.cipher,
      // The rule the other keys follow: on disk only under the keychain, or where the user opted in without one.
      persistent: () =>
        secrets.storage() === 'keychain' || (secrets.storage() === 'basic_text' && secrets.keepWithoutKeyring),
      log,
    }),
    env,
    log,
    secrets: base.knownSecrets,
    baseFetch: base.network.fetch,
  });
  base.addSecrets(() => endpoints.secrets());
  const hubEnabled = () => !!opts.hub?.consented || settings.get().hubAccess === 'online';
  const hub = new HubService({
    client: new HubClient({
      endpoint: () => settings.get().hubEndpoint,
      authed: () => !!keys.forUrl('hfToken', settings.get().hubEndpoint),
      fetch: hfFetch,
      cacheDir: join(opts.dataDir, 'cache', 'hub'),
      log,
      sleep: opts.hub?.sleep,
      timeoutMs: opts.hub?.timeoutMs,
      bodyTimeoutMs: opts.hub?.bodyTimeoutMs,
    }),
    enabled: hubEnabled,
  });
  const ollama = new OllamaService({
    host: () => settings.get().ollamaHost,
    keyedFetch: base.ollamaKeyFetch,
    log,
    timeoutMs: opts.ollama?.timeoutMs,
    pullDisk: {
      size: async (repo, quant) =>
        (await hub.model(repo)).quants.find((q) => q.label.toLowerCase() === quant.toLowerCase())?.size,
      dirs: () => ollamaModelDirs(env),
    },
  });
  const hardware = new HardwareService({ override: () => settings.get().hardwareOverride, log, ...opts.hardware });
  const local = new LocalService({
    ...opts.local,
    dataDir: opts.dataDir,
    env,
    log,
    cipher: opts.cipher,
    hubEndpoint: () => settings.get().hubEndpoint,
    hubFetch: hfFetch,
    hubEnabled,
    hardware: async () => {
      try {
        return fitHardware((await hardware.view()).effective);
      } catch {
        return undefined;
      }
    },
  });
  const ggufHeaders = new GgufHeaderReader({
    endpoint: () => settings.get().hubEndpoint,
    fetch: hfFetch,
    enabled: hubEnabled,
    log,
    timeoutMs: opts.hub?.timeoutMs,
  });
  return { endpoints, hub, ollama, hardware, local, ggufHeaders };
}

export type Models = ReturnType<typeof composeModels>;
