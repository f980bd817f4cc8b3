import { describe, expect, it } from 'vitest';
import { pushTarget } from '@shared/push-target';

describe('pushTarget: where `ollama push <name>` publishes', () => {
  it.each([
    ['me/llama3.2', 'ollama.com', 'me/llama3.2:latest'],
    ['me/llama3.2:q8', 'ollama.com', 'me/llama3.2:q8'],
    ['registry.ollama.ai/me/llama3.2', 'ollama.com', 'me/llama3.2:latest'],
    ['ollama.com/me/llama3.2:1b', 'ollama.com', 'me/llama3.2:1b'],
    // A port is not a tag.
    ['localhost:5000/team/m', 'localhost:5000', 'team/m:latest'],
    ['localhost:5000/team/m:v2', 'localhost:5000', 'team/m:v2'],
  ])('%s → %s as %s', (name, site, ref) => {
    expect(pushTarget(name)).toEqual({ target: { site, ref } });
  });

  it.each([
    ['llama3.2', 'Copy it as <your-ollama-user>/llama3.2:latest first'],
    ['qwen3:8b', 'Copy it as <your-ollama-user>/qwen3:8b first'],
    ['library/qwen3:8b', 'ollama.com/library'],
    ['registry.ollama.ai/library/qwen3', 'ollama.com/library'],
    ['hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q8_0', 'comes from Hugging Face'],
  ])('%s is refused: %s', (name, why) => {
    const r = pushTarget(name);
    expect('refusal' in r && r.refusal).toContain(why);
  });
});
