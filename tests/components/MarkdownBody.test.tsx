// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarkdownBody } from '../../renderer/src/pages/chat/MarkdownBody';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));

const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

/** A reply (or an imported chat) with every way its content could fetch an image from the Hub's hosts. */
const REPLY = [
  'Here is the chart:',
  '',
  '![a chart](https://huggingface.co/a.png?data=secret)',
  '',
  'And <img src="https://cdn-lfs.hf.co/b.png" alt="raw html"> inline.',
  '',
  `![from the model](${PIXEL})`,
  '',
  `<img src="${PIXEL}" srcset="https://huggingface.co/c.png 2x" alt="srcset">`,
  '',
  `<picture><source srcset="https://huggingface.co/d.png"><img src="${PIXEL}" alt="picture"></picture>`,
  '',
  '<video poster="https://huggingface.co/e.png" src="https://huggingface.co/e.mp4"></video>',
  '',
  '[![linked](https://huggingface.co/f.png)](https://huggingface.co/models)',
  '',
  '<button data-load-image="https://evil.example/x.png">Copy</button> ![](/relative.png)',
].join('\n');

/** Every attribute in `root` that would make the browser fetch something from the network. */
const remoteFetches = (root: Element) =>
  [...root.querySelectorAll('*')].flatMap((el) =>
    ['src', 'srcset', 'poster']
      .map((a) => el.getAttribute(a))
      .filter((v): v is string => v !== null && !v.startsWith('data:')),
  );

afterEach(cleanup);

describe('MarkdownBody: no remote image loads until the user asks', () => {
  it('shows a button per remote image (alt text and host); a click loads that image only', async () => {
    const { container } = render(<MarkdownBody text={REPLY} />);
    expect(remoteFetches(container)).toEqual([]);
    expect(container.querySelectorAll('video, source, picture')).toHaveLength(0);
    // The model's own (data:) images are local and show; a relative source (the app's own server) is dropped.
    expect([...container.querySelectorAll('img')].map((i) => [i.alt, i.getAttribute('src')?.slice(0, 5)])).toEqual([
      ['from the model', 'data:'],
      ['srcset', 'data:'],
      ['picture', 'data:'],
      ['', undefined],
    ]);

    const chart = screen.getByRole('button', { name: 'a chart Load image from huggingface.co' });
    expect(chart.title).toBe('https://huggingface.co/a.png?data=secret');
    expect(screen.getByRole('button', { name: 'raw html Load image from cdn-lfs.hf.co' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'linked Load image from huggingface.co' })).toBeTruthy();
    // Markup cannot make its own "load image" button: the attribute is the sanitizer's alone.
    expect(screen.getByRole('button', { name: 'Copy' }).hasAttribute('data-load-image')).toBe(false);

    // Keyboard: the button takes the focus and Enter loads the image, which keeps the focus's place.
    chart.focus();
    await userEvent.keyboard('{Enter}');
    expect(remoteFetches(container)).toEqual(['https://huggingface.co/a.png?data=secret']);
    const img = container.querySelector<HTMLImageElement>('img[src^="https:"]')!;
    expect(img.alt).toBe('a chart');
    expect(document.activeElement).toBe(img);

    // A click on the image inside a link loads it, and does not follow the link.
    const linked = screen.getByRole('button', { name: 'linked Load image from huggingface.co' });
    const followed = vi.fn((e: MouseEvent) => e.defaultPrevented);
    container.addEventListener('click', followed);
    await userEvent.click(linked);
    expect(followed).toHaveReturnedWith(true);
    expect(remoteFetches(container)).toEqual([
      'https://huggingface.co/a.png?data=secret',
      'https://huggingface.co/f.png',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(remoteFetches(container)).toHaveLength(2);
  });

  it('an image loaded once shows again when its message is shown again; the others still wait', () => {
    const { container } = render(<MarkdownBody text={REPLY} />);
    expect(remoteFetches(container)).toEqual([
      'https://huggingface.co/a.png?data=secret',
      'https://huggingface.co/f.png',
    ]);
    expect(screen.getByRole('button', { name: 'raw html Load image from cdn-lfs.hf.co' })).toBeTruthy();
  });
});
