import { describe, expect, it } from 'vitest';
import type { CompareRun } from '@shared/contract/compare';
import { compareMarkdown } from '../../electron/main/services/compare/markdown';

const figures = (ttftMs: number, tokensPerSecond: number, evalTokens: number) => ({
  ttftMs,
  tokensPerSecond,
  evalTokens,
});

const run = (over: Partial<CompareRun> = {}): CompareRun => ({
  id: 'r_abc',
  createdAt: '2026-11-26T18:30:05.000Z',
  prompt: 'Hello, what does Q4_K_M mean?',
  system: 'Be brief.',
  params: { temperature: 0.7 },
  repeat: 1,
  blind: false,
  plan: {
    mode: 'sequential',
    reason: 'Together they need 18.0 GB and 12.1 GB is free: they run one after another.',
    panes: [],
  },
  slots: [
    {
      label: 'Ollama · a|b',
      pane: { backend: 'ollama', model: 'a|b', provider: 'auto', params: { num_ctx: 8192 } },
      loadMs: 1250,
      answers: [{ content: 'A 4-bit <b>k-quant</b>.', status: 'complete', figures: figures(420, 41.46, 120) }],
    },
    {
      label: 'Ollama · c',
      pane: { backend: 'ollama', model: 'c', provider: 'auto', params: {} },
      answers: [
        {
          content: '',
          status: 'error',
          error: { code: 'not_found', message: 'c is not on your Ollama server. Pull it, then try again.' },
        },
      ],
    },
  ],
  ...over,
});

describe('compareMarkdown', () => {
  it('says what was sent and how it ran, a figures table, then each pane with its answer and figures', () => {
    const { filename, mime, text } = compareMarkdown(run());
    expect(filename).toBe('comparison-2026-11-26.md');
    expect(mime).toBe('text/markdown');
    expect(text).toContain('# Comparison: What does Q4_K_M mean\n');
    expect(text).toContain('- Date: 26 Nov 2026, 18:30 UTC');
    expect(text).toContain('- Plan: one after another. Together they need 18.0 GB');
    expect(text).toContain('- Parameters: temperature=0.7');
    expect(text).toContain('| Ollama · a\\|b | 1.3 s | 420 ms | 41.5 tok/s | 120 |');
    expect(text).toContain('| Ollama · c | – | – | – | – |');
    expect(text).toContain('## Prompt\n\nHello, what does Q4_K_M mean?');
    expect(text).toContain('## System prompt\n\nBe brief.');
    expect(text).toContain('- Own parameters: num_ctx=8192');
    // What the model wrote is inert: raw HTML shows as text.
    expect(text).not.toContain('<b>');
    expect(text).toContain('_load 1.3 s · first token 420 ms · 41.5 tok/s · 120 tokens_');
    expect(text).toContain('_(failed)_\n\n> Error: c is not on your Ollama server. Pull it, then try again.');
    expect(text).not.toMatch(/Medians|Blind/);
  });

  it('repeat: each answer under its number, the medians in the table and under the pane', () => {
    const base = run();
    const slot = {
      ...base.slots[0],
      answers: [
        { content: 'one', status: 'complete' as const, figures: figures(400, 40, 100) },
        { content: 'two', status: 'stopped' as const },
        { content: 'three', status: 'complete' as const, figures: figures(500, 44, 110) },
      ],
      median: figures(450, 42, 105),
    };
    const { text } = compareMarkdown({ ...base, repeat: 3, slots: [slot] });
    expect(text).toContain('- Repeat: each pane answered 3 times; the figures are medians');
    expect(text).toContain('| 1.3 s | 450 ms | 42.0 tok/s | 105 |');
    expect(text).toContain('### Answer 1\n\none\n\n_load 1.3 s · first token 400 ms · 40.0 tok/s · 100 tokens_');
    expect(text).toContain('### Answer 2 (stopped)\n\ntwo');
    expect(text).toContain('### Answer 3\n\nthree\n\n_first token 500 ms · 44.0 tok/s · 110 tokens_');
    expect(text).toContain('_Median: load 1.3 s · first token 450 ms · 42.0 tok/s · 105 tokens_');
  });

  it('blind: as the user sees it (Model A… until the vote), then the winner named', () => {
    const hidden = run({
      blind: true,
      slots: run().slots.map(({ pane: _pane, ...s }, i) => ({ ...s, label: `Model ${'AB'[i]}` })),
    });
    const before = compareMarkdown(hidden).text;
    expect(before).toContain('- Blind: the names stay hidden until the vote');
    expect(before).toContain('## Model A');
    expect(before).not.toMatch(/Ollama ·|Own parameters/);
    const after = compareMarkdown(run({ blind: true, vote: { winner: 0, at: '2026-11-26T18:31:00.000Z' } })).text;
    expect(after).toContain('- Blind vote: Ollama · a|b won');
    const tie = compareMarkdown(run({ blind: true, vote: { winner: null, at: '2026-11-26T18:31:00.000Z' } })).text;
    expect(tie).toContain('- Blind vote: a tie');
  });
});
