import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type HubDeskClient } from '@shared/client';
import { AppError } from '@shared/errors';
import type { StreamMessage } from '@shared/transport';
import { registerIpc, type IpcEventLike, type IpcMainLike, type SenderLike } from '../../electron/main/adapters/ipc';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import { ipcTransport, type IpcRendererLike } from '../../electron/preload/ipc-transport';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { tempDir } from '../helpers/app';

/**
 * A harness standing in for Electron's ipcMain / webContents / ipcRenderer: `invoke` reaches the
 * registered handler with an event naming the sender, `send` reaches the renderer's listeners.
 * Messages are structured-cloned, as Electron does.
 */
class FakeWindow implements SenderLike {
  private readonly renderer = new EventEmitter();
  private readonly events = new EventEmitter();
  destroyed = false;
  constructor(
    readonly id: number,
    private readonly main: FakeIpcMain,
  ) {}
  send(channel: string, message: StreamMessage): void {
    setImmediate(() => this.renderer.emit(channel, {}, structuredClone(message)));
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  once(event: 'destroyed', fn: () => void): void {
    this.events.once(event, fn);
  }
  destroy(): void {
    this.destroyed = true;
    this.events.emit('destroyed');
  }
  ipcRenderer(): IpcRendererLike {
    return {
      invoke: (channel, ...args) => this.main.invoke({ sender: this }, channel, structuredClone(args)),
      on: (channel, listener) => void this.renderer.on(channel, listener),
    };
  }
}

class FakeIpcMain implements IpcMainLike {
  private handlers = new Map<string, (e: IpcEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (e: IpcEventLike, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  async invoke(event: IpcEventLike, channel: string, args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return structuredClone(await h(event, ...args));
  }
}

describe('Electron IPC transport (ipcMain/webContents harness)', () => {
  let ollama: OllamaFixture;
  let dir: ReturnType<typeof tempDir>;
  let ipcMain: FakeIpcMain;
  let trusted: FakeWindow;
  let client: HubDeskClient;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')], progressIntervalMs: 20 });
    dir = tempDir();
    const services = createServices({
      dataDir: dir.path,
      mode: 'desktop',
      version: 't',
      env: { OLLAMA_HOST: ollama.url },
    });
    const router = new Router(createHandlers(services), services.log);
    ipcMain = new FakeIpcMain();
    trusted = new FakeWindow(1, ipcMain);
    registerIpc(ipcMain, router, (e) => e.sender.id === trusted.id);
    client = createClient(ipcTransport(trusted.ipcRenderer()));
  });
  afterAll(async () => {
    await ollama.stop();
    dir.remove();
  });

  it('round-trips calls', async () => {
    await expect(client.call('app.info', {})).resolves.toMatchObject({ name: 'HubDesk', mode: 'desktop' });
    const list = await client.call('ollama.list', {});
    expect(list.models[0].name).toBe('llama3.2:latest');
  });

  it('carries typed errors with code and message', async () => {
    const err = (await client
      .call('settings.update', { billTo: 'no spaces allowed' })
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('invalid_input');
    // The field in words for the person; its path for the page's field errors.
    expect(err.message).toBe('Bill to: an organisation name, or empty');
    expect(JSON.stringify(err.details)).toContain('billTo');
  });

  it('streams events then the result', async () => {
    const statuses: string[] = [];
    const h = client.stream('ollama.pull', { model: 'llama3.2' }, (events) =>
      statuses.push(...events.map((e) => e.status)),
    );
    await expect(h.result).resolves.toEqual({ status: 'success' });
    expect(statuses[0]).toBe('pulling manifest');
    expect(statuses.at(-1)).toBe('success');
  });

  it('cancel stops the work in main: the fixture sees the pull connection closed', async () => {
    ollama.progressIntervalMs = 50;
    let events = 0;
    const h = client.stream('ollama.pull', { model: 'llama3.2' }, (e) => (events += e.length));
    // Cancel once the pull is under way (its first progress arrived), not after a guessed delay.
    await expect.poll(() => events).toBeGreaterThan(0);
    h.cancel();
    await expect(h.result).rejects.toMatchObject({ code: 'aborted' });
    await expect.poll(() => ollama.requestsTo('/api/pull').at(-1)?.closedEarly).toBe(true);
  });

  it('a closed window cancels its streams', async () => {
    const services = createServices({
      dataDir: dir.path,
      mode: 'desktop',
      version: 't',
      env: { OLLAMA_HOST: ollama.url },
    });
    const ipc2 = new FakeIpcMain();
    const w2 = new FakeWindow(7, ipc2);
    registerIpc(ipc2, new Router(createHandlers(services), services.log), () => true);
    const c2 = createClient(ipcTransport(w2.ipcRenderer()));
    const before = ollama.requestsTo('/api/pull').length;
    c2.stream('ollama.pull', { model: 'llama3.2' }, () => {});
    await expect.poll(() => ollama.requestsTo('/api/pull').length).toBe(before + 1);
    w2.destroy();
    await expect.poll(() => ollama.requestsTo('/api/pull').at(-1)?.closedEarly).toBe(true);
  });

  it('refuses a sender that is not our window', async () => {
    const stranger = new FakeWindow(99, ipcMain);
    const c = createClient(ipcTransport(stranger.ipcRenderer()));
    await expect(c.call('app.info', {})).rejects.toMatchObject({ code: 'forbidden' });
    await expect(c.stream('ollama.pull', { model: 'llama3.2' }, () => {}).result).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
