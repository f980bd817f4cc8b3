import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layers } from './lint/layers.mjs';

const HOST_ONLY = {
  name: 'node-llama-cpp',
  allowTypeImports: true,
  message:
    'node-llama-cpp runs in the engine host (services/local/runtime); main reaches it through services/local/host.',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'tests/golden/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // The layers may import only from below them: shared is pure; services are plain Node.
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'react', 'react-dom', 'fs', 'path', 'os', 'child_process', 'crypto'],
          patterns: ['node:*', 'react/*', 'react-dom/*', '**/electron/**', '**/renderer/**'],
        },
      ],
    },
  },
  // llama.cpp runs in the engine host only (services/local/runtime, started by electron/main/engine-host.ts), so an
  // abort in it never ends the app: elsewhere node-llama-cpp's types may be named, its code never loaded, and main
  // reaches the host through services/local/host.
  {
    files: ['electron/main/**/*.ts'],
    ignores: ['electron/main/services/**', 'electron/main/engine-host.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [HOST_ONLY], patterns: [{ group: ['**/local/runtime/*'], message: HOST_ONLY.message }] },
      ],
    },
  },
  {
    files: ['electron/main/services/**/*.ts'],
    ignores: ['electron/main/services/local/runtime/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', HOST_ONLY],
          patterns: [
            { group: ['**/adapters/**', '**/renderer/**'] },
            { group: ['**/local/runtime/*'], message: HOST_ONLY.message },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main/services/local/runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron'], patterns: ['**/adapters/**', '**/renderer/**'] }],
    },
  },
  // The same at folder depth (lint/layers.mjs): each ladder runs bottom to top, and a folder imports only from its own
  // rung and those below. In the renderer, pure helpers (lib) < state (store) < data hooks (hooks) < shared components
  // < features < pages < the shell (app); in main, services stay below the router, handlers, adapters and web server.
  {
    files: ['renderer/**/*.{ts,tsx}', 'electron/main/**/*.ts'],
    plugins: { local: { rules: { layers } } },
    rules: {
      'local/layers': [
        'error',
        {
          ladders: [
            ['lib', 'store', 'hooks', 'components', 'features', 'pages', 'app'].map((f) => `renderer/src/${f}`),
            ['electron/main/services', 'electron/main'],
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    // The renderer reaches main only through the contract's client (renderer/src/api.ts).
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'], patterns: ['node:*', '**/electron/**'] }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/src/hooks/**', 'renderer/src/store/**', 'renderer/src/api.ts'],
    // Components and page helpers reach main through the domain hooks and stores (renderer/src/hooks, store/),
    // which own the loading and error states; never through the client itself.
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: ['node:*', '**/electron/**'] },
            {
              regex: '(^|/)api$',
              importNames: ['api'],
              message: 'Use a domain hook (renderer/src/hooks) or a store instead of calling main from here.',
            },
          ],
        },
      ],
    },
  },
);
