// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderCardProgressively, warmCardRenderer } from '../../renderer/src/lib/hub-card';
import { hubUrlRewriter } from '../../renderer/src/lib/hub-card-text';

const rewrite = hubUrlRewriter('https://huggingface.co', 'model', 'org/card');

function render(markdown: string, cacheKey?: string): Promise<HTMLElement> {
  const root = document.createElement('div');
  return new Promise((done) =>
    renderCardProgressively(root, markdown, rewrite, { cacheKey, onDone: () => done(root) }),
  );
}

describe('model card rendering', () => {
  it('a card shown again under its key gives the same markup; a changed card under that key is rendered anew', async () => {
    const first = await render('# Card\n\nSee [docs](docs/a.md).', 'hub model org/card');
    expect(first.querySelector('a')?.getAttribute('href')).toBe('https://huggingface.co/org/card/blob/main/docs/a.md');
    const again = await render('# Card\n\nSee [docs](docs/a.md).', 'hub model org/card');
    expect(again.innerHTML).toBe(first.innerHTML);
    const changed = await render('# Card v2\n\nNew text.', 'hub model org/card');
    expect(changed.querySelector('h1')?.textContent).toBe('Card v2');
    expect(changed.textContent).not.toContain('docs');
  });

  it('the first piece is in the root at once; done is reported after a frame', async () => {
    const root = document.createElement('div');
    let done = false;
    renderCardProgressively(root, '# Now\n', rewrite, { onDone: () => (done = true) });
    expect(root.querySelector('h1')?.textContent).toBe('Now');
    expect(done).toBe(false);
    await new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    expect(done).toBe(true);
  });

  it('warming the renderer leaves the document alone', () => {
    const before = document.body.innerHTML;
    warmCardRenderer();
    expect(document.body.innerHTML).toBe(before);
  });
});
