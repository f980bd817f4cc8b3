import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own ESLint config, run on code that is never written to disk: each layer break must be an error.
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'local/layers').map((m) => m.message);
}

describe('layers at folder depth', () => {
  it.each([
    ['renderer/src/lib/x.ts', "export type { CatalogueView } from '../store/catalogue';"],
    ['renderer/src/store/x.ts', "export { searchKinds } from '../pages/catalogue/HubSearch';"],
    ['renderer/src/store/deeper/x.ts', "export { useShortcuts } from '../../app/shortcuts';"],
    ['renderer/src/hooks/x.ts', "export const load = () => import('../components/States');"],
    ['renderer/src/components/x.ts', "export * from '../pages/chat/ChatPage';"],
    ['renderer/src/features/snippets/x.ts', "export * from '../../pages/catalogue/links';"],
    ['renderer/src/pages/chat/x.ts', "export { useShortcuts } from '../../app/shortcuts';"],
    ['electron/main/services/x.ts', "export { createRouter } from '../router';"],
    ['electron/main/services/hub/x.ts', "export * from '../../handlers';"],
    ['electron/main/services/chat/replies/x.ts', "export * from '../../../web/server';"],
    ['electron/main/services/x.ts', "export * from '../adapters/ipc';"],
  ])('%s may not import a layer above it: %s', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([expect.stringContaining('a layer above it')]);
  });

  it.each([
    [
      'renderer/src/pages/chat/x.ts',
      "export * from '../../store/chat'; export * from '../../features/snippets/types';",
    ],
    // hooks/app.ts is a data hook, not the app/ shell.
    ['renderer/src/components/x.ts', "export { openExternal } from '../hooks/app';"],
    ['renderer/src/app/x.ts', "export * from '../pages/chat/ChatPage';"],
    ['electron/main/x.ts', "export * from './services/settings';"],
  ])('%s may import from its layer and below: %s', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});
