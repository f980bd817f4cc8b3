/**
 * Whether Ollama says a model can chat: it has the `completion` capability (an embedding-only model does not).
 * Undefined until it has answered, or where it cannot tell (an older Ollama lists no capabilities).
 */
export function canChat(capabilities: readonly string[] | undefined): boolean | undefined {
  return capabilities ? capabilities.includes('completion') : undefined;
}
