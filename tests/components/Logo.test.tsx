// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { render } from '@testing-library/react';
import { expect, it } from 'vitest';
import { Logo } from '../../renderer/src/components/Logo';

/** The drawing of an SVG, size and attribute order aside: each shape with its attributes. */
function shapes(svg: Element): string[] {
  return [...svg.children].map((el) =>
    [el.tagName, ...[...el.attributes].map((a) => `${a.name}=${a.value}`).sort()].join(' '),
  );
}

it('the inline logo is the drawing of the window icon (public/favicon.svg)', () => {
  const file = new DOMParser().parseFromString(readFileSync('renderer/public/favicon.svg', 'utf8'), 'image/svg+xml');
  const { container } = render(<Logo size={26} />);
  const inline = container.querySelector('svg')!;
  expect(inline.getAttribute('viewBox')).toBe(file.documentElement.getAttribute('viewBox'));
  expect(shapes(inline)).toEqual(shapes(file.documentElement));
  expect(inline.getAttribute('width')).toBe('26');
});
