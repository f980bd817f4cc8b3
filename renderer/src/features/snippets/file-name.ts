/** A file name per language for "Save to project…": `openai/whisper-large-v3-turbo` + requests → `whisper_large_v3_turbo_requests.py`. */
const extensions: Record<string, string> = { python: 'py', js: 'mjs', sh: 'sh', json: 'json' };

export function snippetFileName(modelId: string, language: string, client: string): string {
  const slug = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  const base = slug(modelId.split('/').pop() ?? modelId) || 'snippet';
  const c = slug(client);
  return `${base}${c ? `_${c}` : ''}.${extensions[language] ?? 'txt'}`;
}
