import { describe, expect, it } from 'vitest';
import { aboveFloor } from '../../electron/main/services/documents/relevance';

const pack = (sims: number[]) => sims.map((similarity, i) => ({ id: i, similarity }));

describe('the relevance floor of retrieval', () => {
  it('keeps the passage clearly nearer the question than the pack, drops the pack', () => {
    // The stand-in embedder's scale: the fact at 0.21, unrelated sections near 0.05.
    const hits = pack([0.212, 0.055, 0.052, 0.052, 0.051, 0.05, 0.049, 0.048]);
    expect(aboveFloor(hits).map((h) => h.id)).toEqual([0]);
    // nomic-embed-text's scale: unrelated near 0.4.
    expect(aboveFloor(pack([0.78, 0.71, 0.45, 0.44, 0.43, 0.42, 0.41])).map((h) => h.id)).toEqual([0, 1]);
  });

  it('a question the documents know nothing of ("FAIL500 please") finds nothing by meaning', () => {
    expect(aboveFloor(pack([0.023, 0.022, 0.018, 0.018, 0.018, 0.017, 0.016]))).toEqual([]);
    expect(aboveFloor(pack([0.47, 0.46, 0.45, 0.44, 0.44, 0.43]))).toEqual([]);
  });

  it("passages with the question's words about as much as the best stay whatever their vectors; few measured all count", () => {
    const hits = [
      ...pack([0.02, 0.02, 0.02, 0.02, 0.02]),
      { id: 9, textScore: 9.1, similarity: 0.02 },
      { id: 10, textScore: 6 },
      { id: 11, textScore: 1.2 },
    ];
    expect(aboveFloor(hits).map((h) => h.id)).toEqual([9, 10]);
    expect(aboveFloor(pack([0.1, 0.02])).map((h) => h.id)).toEqual([0, 1]);
  });
});
