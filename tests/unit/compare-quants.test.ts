import { describe, expect, it } from 'vitest';
import { compareSetSchema } from '../../shared/contract/compare';
import {
  compareNote,
  confirmLabel,
  initialPicks,
  inSizeOrder,
  ollamaName,
  quantSet,
} from '../../renderer/src/lib/compare-quants';

const GB = 1e9;
// The fixture repo's quants (unsloth/Llama-3.2-1B-Instruct-GGUF), in the Hub's order.
const llama = [
  { label: 'Q8_0', size: 1.32 * GB },
  { label: 'Q4_K_M', size: 0.81 * GB },
  { label: 'F16', size: 2.48 * GB },
  { label: 'UD-Q4_K_XL', size: 0.84 * GB },
  { label: 'Q2_K', size: 0.58 * GB },
];

describe('Compare quants: the quants ticked at first', () => {
  it('the largest Q4-class quant that fits, against Q8_0, smallest first', () => {
    const fits = llama.map((q) => ({ ...q, verdict: 'ram' as const }));
    expect(initialPicks(fits)).toEqual(['UD-Q4_K_XL', 'Q8_0']);
  });

  it('Q4_K_M when the verdicts are not known yet (or nothing fits fully)', () => {
    expect(initialPicks(llama)).toEqual(['Q4_K_M', 'Q8_0']);
    expect(initialPicks(llama.map((q) => ({ ...q, verdict: 'too-large' as const })))).toEqual(['Q4_K_M', 'Q8_0']);
  });

  it('a GPU machine where Q8_0 fits in VRAM still starts from the Q4 class, not from Q8_0 against itself', () => {
    const vram = llama.map((q) => ({ ...q, verdict: q.label === 'F16' ? ('partial' as const) : ('vram' as const) }));
    expect(initialPicks(vram)).toEqual(['UD-Q4_K_XL', 'Q8_0']);
  });

  it('without Q8_0: the default and its next larger neighbour, or the next smaller at the top', () => {
    const noRef = [
      { label: 'Q3_K_M', size: 3 * GB },
      { label: 'Q4_K_M', size: 4 * GB },
      { label: 'Q5_K_M', size: 5 * GB },
      { label: 'Q6_K', size: 6 * GB },
    ];
    expect(initialPicks(noRef)).toEqual(['Q4_K_M', 'Q5_K_M']);
    const top = [
      { label: 'Q2_K', size: 2 * GB },
      { label: 'Q4_K_M', size: 4 * GB },
    ];
    expect(initialPicks(top)).toEqual(['Q2_K', 'Q4_K_M']);
  });

  it('only Q8_0 is Q4-less: the smallest against Q8_0; Q8_0 alone with F16: the pair', () => {
    expect(
      initialPicks([
        { label: 'Q8_0', size: 8 * GB },
        { label: 'Q6_K', size: 6 * GB },
        { label: 'F16', size: 16 * GB },
      ]),
    ).toEqual(['Q6_K', 'Q8_0']);
    expect(
      initialPicks([
        { label: 'Q8_0', size: 8 * GB },
        { label: 'F16', size: 16 * GB },
      ]),
    ).toEqual(['Q8_0', 'F16']);
  });

  it('fewer than 2 quants: nothing to compare', () => {
    expect(initialPicks([{ label: 'Q4_K_M', size: GB }])).toEqual([]);
    expect(initialPicks([])).toEqual([]);
  });

  it('keeps picks in size order, unknown sizes last', () => {
    const mixed = [...llama, { label: 'IQ1_S' }];
    expect(inSizeOrder(mixed, ['IQ1_S', 'F16', 'Q2_K'])).toEqual(['Q2_K', 'F16', 'IQ1_S']);
  });
});

describe('Compare quants: the button and the set', () => {
  it('says what it will do before anything is fetched', () => {
    expect(confirmLabel('ollama', [])).toBe('Compare');
    expect(confirmLabel('local', [])).toBe('Compare');
    expect(confirmLabel('ollama', [{ size: 8.5 * GB }])).toBe('Pull 1 model (8.5 GB) and compare');
    expect(confirmLabel('local', [{ size: 0.84 * GB }, { size: 1.32 * GB }])).toBe(
      'Download 2 files (2.2 GB) and compare',
    );
    // A size the Hub did not list: no total rather than a wrong one.
    expect(confirmLabel('ollama', [{ size: GB }, {}])).toBe('Pull 2 models and compare');
  });

  it('the note names the quants and the repo', () => {
    expect(compareNote('org/x-GGUF', ['Q4_K_M', 'Q8_0'])).toBe('Q4_K_M against Q8_0 of org/x-GGUF');
    expect(compareNote('org/x-GGUF', ['Q2_K', 'Q4_K_M', 'Q8_0'])).toBe('Q2_K against Q4_K_M and Q8_0 of org/x-GGUF');
  });

  it('one pane per quant on the chosen engine, valid for the contract', () => {
    const repo = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
    const ollama = quantSet('ollama', [ollamaName(repo, 'Q4_K_M'), ollamaName(repo, 'Q8_0')]);
    expect(compareSetSchema.parse(ollama).panes.map((p) => [p.backend, p.model])).toEqual([
      ['ollama', 'hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M'],
      ['ollama', 'hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q8_0'],
    ]);
    const local = quantSet('local', [`${repo}/a-Q4_K_M.gguf`, `${repo}/a-Q8_0.gguf`, `${repo}/a-F16.gguf`]);
    expect(compareSetSchema.parse(local).panes.every((p) => p.backend === 'local')).toBe(true);
  });
});
