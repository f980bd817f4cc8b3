import { describe, expect, it } from 'vitest';
import { baseModels } from '@shared/lineage';
import { splitFrontMatter } from '../../electron/main/services/hub/repo';
import { buildFileTree } from '../../renderer/src/lib/file-tree';
import { hubUrlRewriter, splitMarkdown } from '../../renderer/src/lib/hub-card-text';

describe('model card URLs resolve against the Hub', () => {
  const model = hubUrlRewriter('https://huggingface.co', 'model', 'meta-llama/Llama-3.1-8B');
  const space = hubUrlRewriter('https://hf-mirror.example/', 'space', 'acme/demo');

  it('relative links go to blob/main, relative images to resolve/main', () => {
    expect(model('LICENSE', 'link')).toBe('https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/LICENSE');
    expect(model('./docs/a b.md', 'link')).toBe(
      'https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/docs/a%20b.md',
    );
    expect(model('assets/arch.png', 'image')).toBe(
      'https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/assets/arch.png',
    );
    expect(space('app.py', 'link')).toBe('https://hf-mirror.example/spaces/acme/demo/blob/main/app.py');
    expect(model('#usage', 'link')).toBe('#usage');
  });

  it('links keep only http(s) and mailto; javascript:, data: and vbscript: are refused', () => {
    expect(model('https://arxiv.org/abs/1', 'link')).toBe('https://arxiv.org/abs/1');
    expect(model('mailto:a@b.c', 'link')).toBe('mailto:a@b.c');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc'])
      expect(model(bad, 'link')).toBeNull();
  });

  it('images load only from the Hub hosts or the configured endpoint', () => {
    expect(model('https://cdn-uploads.huggingface.co/x.png', 'image')).toBe('https://cdn-uploads.huggingface.co/x.png');
    expect(model('https://cas-bridge.xethub.hf.co/x.png', 'image')).toBe('https://cas-bridge.xethub.hf.co/x.png');
    expect(model('https://tracker.example/pixel.png', 'image')).toBeNull();
    expect(model('https://huggingface.co.evil.example/x.png', 'image')).toBeNull();
    expect(model('http://huggingface.co/x.png', 'image')).toBeNull();
    expect(model('//evil.example/x.png', 'image')).toBeNull();
    expect(space('https://hf-mirror.example/x.png', 'image')).toBe('https://hf-mirror.example/x.png');
    expect(model('data:image/svg+xml,<svg onload=x>', 'image')).toBeNull();
  });
});

describe('long cards are split for progressive rendering', () => {
  it('splits at blank lines near the target, never inside a code fence, keeping every character', () => {
    const fence = '```\n' + 'code line\n\n'.repeat(200) + '```\n';
    const md = 'para one\n\n'.repeat(300) + fence + '\nafter\n';
    const pieces = splitMarkdown(md, 500);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('\n')).toBe(md);
    expect(pieces.filter((p) => p.includes('```')).every((p) => (p.match(/```/g) ?? []).length === 2)).toBe(true);
  });

  it('copies reference link definitions into every piece', () => {
    const md = 'see [docs][1]\n\n' + 'filler\n\n'.repeat(200) + '[1]: https://huggingface.co/docs\n';
    const pieces = splitMarkdown(md, 300);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.includes('[1]: https://huggingface.co/docs'))).toBe(true);
  });

  it('a short card is one piece', () => {
    expect(splitMarkdown('# hi\n', 500)).toEqual(['# hi\n']);
  });
});

describe('front matter', () => {
  it('is split off the start only', () => {
    expect(splitFrontMatter('---\nlicense: mit\n---\n# Title\n')).toEqual({
      frontMatter: 'license: mit',
      markdown: '# Title\n',
    });
    expect(splitFrontMatter('\uFEFF---\r\na: 1\r\n---\r\nbody')).toEqual({ frontMatter: 'a: 1', markdown: 'body' });
    expect(splitFrontMatter('# Title\n---\nnot: yaml\n---\n')).toEqual({ markdown: '# Title\n---\nnot: yaml\n---\n' });
    expect(splitFrontMatter('---\nnever closed')).toEqual({ markdown: '---\nnever closed' });
  });
});

describe('base-model lineage', () => {
  it('reads the relation from tags and the card, without duplicates', () => {
    expect(
      baseModels({ base_model: ['org/base', 'other/base'] }, ['base_model:quantized:org/base', 'base_model:org/base']),
    ).toEqual([{ id: 'org/base', relation: 'quantized' }, { id: 'other/base' }]);
    expect(baseModels({ base_model: 'a/b', base_model_relation: 'merge' }, [])).toEqual([
      { id: 'a/b', relation: 'merge' },
    ]);
    expect(baseModels({ base_model: 'not an id!' }, ['base_model:weird:x/y'])).toEqual([]);
    expect(baseModels(undefined, [])).toEqual([]);
  });
});

describe('file tree', () => {
  it('nests folders (also implied ones), sums sizes and counts bottom-up, LFS sizes included', () => {
    const root = buildFileTree([
      { type: 'file', path: 'README.md', size: 100 },
      { type: 'directory', path: 'original', size: 0 },
      { type: 'file', path: 'original/params.json', size: 50 },
      { type: 'file', path: 'original/deep/a.bin', size: 134, lfs: { oid: 'x', size: 1000, pointerSize: 134 } },
      { type: 'file', path: 'implied/b.txt', size: 7 },
      { type: 'directory', path: 'empty', size: 0 },
    ]);
    expect(root.size).toBe(1157);
    expect(root.fileCount).toBe(4);
    expect(root.folders.map((f) => f.name)).toEqual(['empty', 'implied', 'original']);
    const original = root.folders[2];
    expect(original).toMatchObject({ size: 1050, fileCount: 2 });
    expect(original.folders[0]).toMatchObject({ path: 'original/deep', size: 1000 });
    expect(root.folders[0]).toMatchObject({ size: 0, fileCount: 0 });
    expect(root.files.map((f) => f.path)).toEqual(['README.md']);
  });
});
