import type { Endpoint, EndpointPreset } from '@shared/contract/endpoints';

/** Each preset's name in the page and the address its server listens on by default (main adds or drops `/v1`). */
export const endpointPresetInfo: Record<EndpointPreset, { label: string; short: string; url: string }> = {
  'llama.cpp': { label: 'llama.cpp server', short: 'llama.cpp', url: 'http://127.0.0.1:8080' },
  lmstudio: { label: 'LM Studio', short: 'LM Studio', url: 'http://127.0.0.1:1234' },
  vllm: { label: 'vLLM', short: 'vLLM', url: 'http://127.0.0.1:8000' },
  ollama: { label: 'Ollama /v1', short: 'Ollama', url: 'http://127.0.0.1:11434/v1' },
  localai: { label: 'LocalAI', short: 'LocalAI', url: 'http://127.0.0.1:8080' },
  jan: { label: 'Jan', short: 'Jan', url: 'http://127.0.0.1:1337' },
  openrouter: { label: 'OpenRouter', short: 'OpenRouter', url: 'https://openrouter.ai/api/v1' },
  other: { label: 'Other OpenAI-compatible server', short: '', url: '' },
};

/** How an endpoint is named as a chat engine: "llama.cpp — my box", or its name alone when that says it already. */
export function endpointLabel(e: Pick<Endpoint, 'name' | 'preset'>): string {
  const short = endpointPresetInfo[e.preset].short;
  return !short || e.name.toLowerCase().includes(short.toLowerCase()) ? e.name : `${short} — ${e.name}`;
}
