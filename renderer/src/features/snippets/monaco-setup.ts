// Monaco bundled with the app (no CDN): the editor core, five languages, and its workers as Vite worker chunks.
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/editor/contrib/clipboard/browser/clipboard';
import 'monaco-editor/editor/contrib/find/browser/findController';
import 'monaco-editor/editor/contrib/folding/browser/folding';
import 'monaco-editor/editor/contrib/contextmenu/browser/contextmenu';
// The JSON language loads its mode on first use, and with it (internal/common/workers) every editor contribution.
// Those register after the editor's services were built, so any editor created later failed to create them
// ("depends on UNKNOWN service ICodeLensCache", ISuggestMemories, IInlayHintsCache…). The services those
// contributions need (the modules of that set that register one) are registered here, before the first editor.
import 'monaco-editor/editor/contrib/codelens/browser/codeLensCache';
import 'monaco-editor/editor/contrib/suggest/browser/suggestMemory';
import 'monaco-editor/editor/contrib/inlayHints/browser/inlayHintsController';
import 'monaco-editor/editor/contrib/documentSymbols/browser/outlineModel';
import 'monaco-editor/editor/contrib/peekView/browser/peekView';
import 'monaco-editor/editor/contrib/gotoSymbol/browser/symbolNavigation';
import 'monaco-editor/editor/contrib/gotoError/browser/markerNavigationService';
import 'monaco-editor/editor/common/services/treeViewsDndService';
import 'monaco-editor/languages/definitions/python/register';
import 'monaco-editor/languages/definitions/javascript/register';
import 'monaco-editor/languages/definitions/shell/register';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/language/json/monaco.contribution';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

self.MonacoEnvironment = {
  getWorker: (_id: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};

monaco.editor.defineTheme('hubdesk-light', {
  base: 'vs',
  inherit: true,
  // The tokens 'vs' paints below 4.5:1 on this background, darkened (axe-core colour-contrast).
  rules: [
    { token: 'number', foreground: '067a4f' },
    { token: 'attribute.value.number', foreground: '067a4f' },
    { token: 'attribute.value.unit', foreground: '067a4f' },
    { token: 'type', foreground: '006b6b' },
    { token: 'annotation', foreground: '666666' },
    { token: 'metatag.html', foreground: '666666' },
    { token: 'metatag.xml', foreground: '666666' },
    { token: 'attribute.name', foreground: 'c00000' },
    { token: 'string.sql', foreground: 'c00000' },
    { token: 'metatag.content.html', foreground: 'c00000' },
  ],
  colors: { 'editor.background': '#fbfbfc', 'editorGutter.background': '#fbfbfc' },
});
monaco.editor.defineTheme('hubdesk-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: { 'editor.background': '#12151b', 'editorGutter.background': '#12151b' },
});

loader.config({ monaco });

export { monaco };
