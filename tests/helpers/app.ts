import type { ConnectionLimits } from '../../electron/main/services/http/connection-guard';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type HubDeskClient } from '@shared/client';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices, type Services, type ServicesOptions } from '../../electron/main/services';
import { startWebServer, type WebServer } from '../../electron/main/web/server';
import { webTransport } from '../../renderer/src/transport/web';

export function tempDir(prefix = 'hubdesk-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface TestApp {
  services: Services;
  router: Router;
  server: WebServer;
  /** The typed client over the real web transport, as the renderer uses it. */
  client: HubDeskClient;
  dataDir: string;
  close(): Promise<void>;
}

/** The whole main side (services, router, web server) on a temp data dir, with a client over HTTP. */
export async function startTestApp(
  opts: Partial<ServicesOptions> & {
    env?: Record<string, string>;
    /** The web server's cap on connections and its header timeout. */
    webConnections?: Partial<ConnectionLimits>;
  } = {},
): Promise<TestApp> {
  const dir = opts.dataDir ? undefined : tempDir();
  const dataDir = opts.dataDir ?? dir!.path;
  const services = createServices({ mode: 'web', version: '0.0.0-test', env: {}, ...opts, dataDir });
  const router = new Router(createHandlers(services), services.log);
  const server = await startWebServer({ router, log: services.log, connections: opts.webConnections });
  const client = createClient(webTransport(`http://127.0.0.1:${server.port}`, server.secret));
  return {
    services,
    router,
    server,
    client,
    dataDir,
    close: async () => {
      await server.close();
      await services.dispose();
      dir?.remove();
    },
  };
}
