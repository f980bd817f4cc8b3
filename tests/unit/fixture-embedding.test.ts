import { describe, expect, it } from 'vitest';
import { plantedCorpus } from '../fixtures/documents/corpus';
import { cosine, embedding, stem } from '../fixtures/embedding';

const norm = (v: number[]) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));

describe('fixture embedding', () => {
  it('is deterministic, of unit length, and of the dimension asked', () => {
    const a = embedding('The warehouse in Tromsø stores 4,812 crates of cloudberry jam.');
    expect(a).toHaveLength(768);
    expect(embedding('The warehouse in Tromsø stores 4,812 crates of cloudberry jam.')).toEqual(a);
    expect(norm(a)).toBeCloseTo(1, 10);
    const small = embedding('a depot of boxes', 64);
    expect(small).toHaveLength(64);
    expect(norm(small)).toBeCloseTo(1, 10);
    expect(embedding('the of and', 16)).toEqual(new Array(16).fill(0));
    expect(() => embedding('x', 0)).toThrow(RangeError);
  });

  it('stems plurals, -ing and -ed so the forms of a word meet', () => {
    expect(new Set(['store', 'stores', 'stored', 'storing'].map(stem)).size).toBe(1);
    expect(stem('boxes')).toBe(stem('box'));
    expect(stem('stopped')).toBe(stem('stop'));
    expect(stem('cities')).toBe('city');
  });

  it('puts a reworded question nearer its fact than unrelated text', () => {
    const fact = embedding('The warehouse in Tromsø stores 4,812 crates of cloudberry jam.');
    const question = embedding('How many boxes of cloudberry preserve are kept in the Tromsø depot?');
    const unrelated = embedding('The committee reviewed the quarterly figures before the deadline.');
    const otherFact = embedding('The physician in Bergen begins every shift at 06:40.');
    expect(cosine(fact, question)).toBeGreaterThan(0.5);
    expect(cosine(fact, question)).toBeGreaterThan(cosine(fact, unrelated) + 0.3);
    expect(cosine(fact, question)).toBeGreaterThan(cosine(otherFact, question) + 0.3);
    // Synonyms alone (no word in common) still land near each other.
    expect(cosine(embedding('buy a large car'), embedding('purchasing big automobiles'))).toBeGreaterThan(0.8);
    expect(cosine(embedding('buy a large car'), embedding('read a short poem'))).toBeLessThan(0.2);
  });

  it('ranks every planted fact first for its own question among all the facts', () => {
    const { questions } = plantedCorpus({ documents: 12, factsPerDocument: 5, seed: 3 });
    const facts = questions.map((q) => embedding(q.fact));
    const missed = questions.filter((q, i) => {
      const v = embedding(q.question);
      const best = facts.reduce((b, f, j) => (cosine(f, v) > cosine(facts[b], v) ? j : b), 0);
      return best !== i;
    });
    expect(missed.map((q) => q.question)).toEqual([]);
  });
});

describe('planted corpus', () => {
  it('is the same for the same seed and plants each fact once, in its document', () => {
    const a = plantedCorpus({ documents: 6, factsPerDocument: 4, seed: 42 });
    expect(plantedCorpus({ documents: 6, factsPerDocument: 4, seed: 42 })).toEqual(a);
    expect(plantedCorpus({ documents: 6, factsPerDocument: 4, seed: 43 }).files[0].text).not.toBe(a.files[0].text);
    expect(a.files.map((f) => f.name)).toEqual(['001', '002', '003', '004', '005', '006'].map((n) => `doc-${n}.md`));
    expect(a.questions).toHaveLength(24);
    const all = a.files.map((f) => f.text).join('\n');
    for (const q of a.questions) {
      expect(all.split(q.fact)).toHaveLength(2);
      expect(a.files.find((f) => f.name === q.document)?.text).toContain(q.fact);
      expect(q.fact).toContain(q.answer);
      expect(q.question).not.toContain(q.answer);
      expect(q.question).toMatch(/\?$/);
    }
    expect(new Set(a.questions.map((q) => q.question)).size).toBe(24);
  });

  it('writes Markdown with headings, and tables or code now and then', () => {
    const { files } = plantedCorpus({ documents: 20, factsPerDocument: 3, seed: 1 });
    expect(files.every((f) => /^# Minutes \d+: /.test(f.text) && /\n## 1\. /.test(f.text))).toBe(true);
    expect(files.some((f) => f.text.includes('| Item | Q1 | Q2 | Q3 |'))).toBe(true);
    expect(files.some((f) => f.text.includes('```ts'))).toBe(true);
  });

  it('rewords each question: some words shared with its fact, the rest synonyms', () => {
    const { questions } = plantedCorpus({ documents: 10, factsPerDocument: 5, seed: 9 });
    const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}]{4,}/gu));
    for (const q of questions) {
      const fact = words(q.fact);
      const shared = [...words(q.question)].filter((w) => fact.has(w));
      expect(shared.length, q.question).toBeGreaterThanOrEqual(q.keepsDetail ? 2 : 1);
      expect(shared.length, q.question).toBeLessThan(words(q.question).size - 1);
    }
    const kept = questions.filter((q) => q.keepsDetail).length;
    expect(kept).toBeGreaterThan(questions.length / 4);
    expect(kept).toBeLessThan((questions.length * 3) / 4);
    expect(() => plantedCorpus({ documents: 1000, factsPerDocument: 10, seed: 1 })).toThrow(RangeError);
  });
});
