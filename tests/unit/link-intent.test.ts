// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTENT_MS, intendLink, onLinkIntent } from '../../renderer/src/lib/link-intent';

const seen: string[] = [];
onLinkIntent((href) => seen.push(href));
document.body.innerHTML = `
  <a id="model" href="#/catalogue/model/org%2Fa"><span id="inside">org/a</span></a>
  <a id="other" href="#/chat">Chat</a>
  <a id="away" href="https://huggingface.co/org/a">on the Hub</a>
  <p id="text">text</p>`;
const el = (id: string) => document.getElementById(id)!;
const over = (id: string) => el(id).dispatchEvent(new Event('pointerover', { bubbles: true }));

afterEach(() => {
  intendLink(undefined);
  seen.length = 0;
  vi.useRealTimers();
});

describe('link intent', () => {
  it('the pointer resting on an in-app link (or inside it) names it once, after INTENT_MS', () => {
    vi.useFakeTimers();
    over('inside');
    vi.advanceTimersByTime(INTENT_MS - 1);
    expect(seen).toEqual([]);
    over('model'); // moving within the same link does not start over
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['#/catalogue/model/org%2Fa']);
  });

  it('a link passed over is skipped; leaving for text or an outside link cancels', () => {
    vi.useFakeTimers();
    over('model');
    vi.advanceTimersByTime(INTENT_MS / 2);
    over('other');
    vi.advanceTimersByTime(INTENT_MS);
    expect(seen).toEqual(['#/chat']);
    over('model');
    vi.advanceTimersByTime(INTENT_MS / 2);
    over('text');
    over('away');
    vi.advanceTimersByTime(INTENT_MS * 2);
    expect(seen).toEqual(['#/chat']);
  });

  it('the focus on a link counts as resting on it (Tab through a list)', () => {
    vi.useFakeTimers();
    el('other').focus();
    vi.advanceTimersByTime(INTENT_MS);
    expect(seen).toEqual(['#/chat']);
  });
});
