import { buildSearchIndex, searchIndex, type SearchRecord } from '../renderer/src/pages/catalogue/search';
export async function main() {
  const words = [
    'llama',
    'qwen',
    'mistral',
    'phi',
    'gemma',
    'bert',
    'whisper',
    'diffusion',
    'coder',
    'instruct',
    'base',
    'large',
    'small',
    'chat',
    'vision',
    'embed',
    'xl',
    'tiny',
    'turbo',
    'sentence',
  ];
  const orgs = [
    'meta',
    'google',
    'openai',
    'qwen',
    'mistralai',
    'microsoft',
    'stabilityai',
    'bigscience',
    'sentence-transformers',
    'unsloth',
  ];
  let seed = 42;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const records: SearchRecord[] = Array.from({ length: 100000 }, (_, i) => {
    const id = `${orgs[rnd(orgs.length)]}-${i % 997}/${words[rnd(words.length)]}-${words[rnd(words.length)]}-${1 + rnd(70)}b`;
    return { kind: 'model' as const, id, label: id, modalities: ['nlp'], tasks: ['text-generation'] };
  });
  const index = buildSearchIndex(records);
  const queries = [
    'whisper',
    'llama 3 instruct',
    'wisper',
    'bert base uncased',
    'stable diffusion xl',
    'qwen coder',
    'sentence transformers',
    'yolo',
  ];
  for (let round = 0; round < 2; round++) {
    const slow: string[] = [];
    for (const q of queries) {
      for (let i = 1; i <= q.length; i++) {
        const t = performance.now();
        const r = searchIndex(index, q.slice(0, i));
        const dt = performance.now() - t;
        if (dt > 5) slow.push(`${JSON.stringify(q.slice(0, i))} ${dt.toFixed(1)}ms (${r.length})`);
      }
      searchIndex(index, '');
    }
    console.log(slow.join('\n'));
  }
}
