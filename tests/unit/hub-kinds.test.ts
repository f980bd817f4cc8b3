import { describe, expect, it } from 'vitest';
import {
  hubKindInfo,
  hubKindOfPage,
  hubKindOfRepo,
  hubKinds,
  hubWebPath,
  repoKinds,
  type HubKind,
} from '@shared/hub-kinds';

describe('the Hub repo kinds, one table', () => {
  it('names each kind as the Hub API, the repo calls, the catalogue pages and the screens do', () => {
    expect(hubKinds).toEqual(['models', 'datasets', 'spaces']);
    expect(repoKinds).toEqual(['model', 'dataset', 'space']);
    expect(hubKinds.map((k) => hubKindInfo[k].repo)).toEqual(repoKinds);
    expect(hubKinds.map((k) => hubKindInfo[k].page)).toEqual(['model', 'dataset', 'app']);
    expect(hubKinds.map((k) => hubKindInfo[k].label)).toEqual(['Models', 'Datasets', 'Spaces']);
    expect(hubKinds.map((k) => hubKindInfo[k].noun)).toEqual(['models', 'datasets', 'Spaces']);
    expect(hubKinds.map((k) => hubKindInfo[k].nounOne)).toEqual(['model', 'dataset', 'Space']);
    expect(hubKinds.map((k) => hubKindInfo[k].one)).toEqual(['Model', 'Dataset', 'Space']);
  });

  it('goes back from a repo kind or a catalogue page to the Hub kind', () => {
    for (const k of hubKinds) {
      expect(hubKindOfRepo(hubKindInfo[k].repo)).toBe<HubKind>(k);
      expect(hubKindOfPage(hubKindInfo[k].page)).toBe<HubKind>(k);
    }
  });

  it("writes a repo's path on huggingface.co: models at the root, the others under their plural", () => {
    expect(hubWebPath('models', 'openai/whisper-large-v3')).toBe('openai/whisper-large-v3');
    expect(hubWebPath('datasets', 'kotoba/speech ja')).toBe('datasets/kotoba/speech%20ja');
    expect(hubWebPath('spaces', 'hf-audio/open_asr_leaderboard')).toBe('spaces/hf-audio/open_asr_leaderboard');
  });
});
