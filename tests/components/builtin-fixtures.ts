import type { LocalModel } from '@shared/contract/local-models';
import type { Download } from '@shared/contract/local-downloads';
import type { EngineStatus, LoadedModel } from '@shared/contract/local-engine';
import type { LocalServerStatus, RequestLogEntry } from '@shared/contract/local-server';

// Answers main gives the built-in engine's screens, shaped by shared/contract/local-*.ts.

export const gguf = (over: Partial<LocalModel> = {}): LocalModel => ({
  id: 'org/tiny-GGUF/tiny-Q4_K_M.gguf',
  name: 'tiny-Q4_K_M',
  path: '/home/u/.cache/huggingface/hub/models--org--tiny-GGUF/snapshots/abc/tiny-Q4_K_M.gguf',
  parts: 1,
  source: 'hf-cache',
  folder: '/home/u/.cache/huggingface/hub',
  repo: 'org/tiny-GGUF',
  quant: 'Q4_K_M',
  architecture: 'llama',
  sizeBytes: 524_288,
  embedding: false,
  deletable: false,
  verified: true,
  plan: {
    contextSize: 512,
    maxContext: 512,
    gpuLayers: 0,
    layers: 2,
    verdict: 'ram',
    explanation: 'Fits in RAM (CPU): needs about 0.1 GB; compared with 8 GB RAM.',
  },
  ...over,
});

export const status = (over: Partial<EngineStatus> = {}): EngineStatus => ({
  started: false,
  loaded: [],
  keepAliveMinutes: 10,
  threads: { value: 1, auto: true },
  ...over,
});

export const loadedModel = (over: Partial<LoadedModel> = {}): LoadedModel => ({
  id: 'org/tiny-GGUF/tiny-Q4_K_M.gguf',
  name: 'tiny-Q4_K_M',
  contextSize: 512,
  gpuLayers: 0,
  sequences: 1,
  busy: 0,
  waiting: 0,
  memoryBytes: 600_000_000,
  loadedAt: '2026-11-20T10:00:00.000Z',
  embedding: false,
  ...over,
});

export const download = (over: Partial<Download> = {}): Download => ({
  id: 'd1',
  repo: 'org/tiny-GGUF',
  revision: 'main',
  file: 'tiny-Q8_0.gguf',
  files: ['tiny-Q8_0.gguf'],
  state: 'downloading',
  receivedBytes: 250_000_000,
  totalBytes: 1_000_000_000,
  bytesPerSecond: 12_500_000,
  etaSeconds: 60,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

export const server = (over: Partial<LocalServerStatus> = {}): LocalServerStatus => ({
  enabled: false,
  running: false,
  port: 11435,
  keySet: false,
  keySource: 'none',
  lan: false,
  corsOrigins: [],
  keepBodies: false,
  ...over,
});

export const logEntry = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id: 'r1',
  at: '2026-11-20T10:00:00.000Z',
  client: 'OpenAI/JS 6.x',
  userAgent: 'OpenAI/JS 6.9.1',
  method: 'POST',
  path: '/v1/chat/completions',
  model: 'org/tiny-GGUF/tiny-Q4_K_M.gguf',
  status: 200,
  durationMs: 420,
  promptTokens: 12,
  completionTokens: 30,
  tokensPerSecond: 48.5,
  kept: false,
  ...over,
});
