import type { EndpointPreset } from '@shared/contract/endpoints';

/** How to start each kind of server, for the doctor's "nothing is listening" (the page holds the usual addresses). */
export const startHints: Record<EndpointPreset, string> = {
  'llama.cpp': 'start the server (e.g. "llama-server -m model.gguf")',
  lmstudio: 'start LM Studio’s server (Developer → Start server, or "lms server start")',
  vllm: 'start the server (e.g. "vllm serve <model>")',
  ollama: 'start Ollama ("ollama serve")',
  localai: 'start LocalAI ("local-ai run")',
  jan: "start Jan's Local API Server (Settings → Local API Server)",
  openrouter: 'check this machine’s connection',
  other: 'start the server (e.g. "llama-server -m model.gguf")',
};
