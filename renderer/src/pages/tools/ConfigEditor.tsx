import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef, useState } from 'react';
import type { McpConfigError } from '@shared/contract/mcp';
import { Loading } from '../../components/States';
import { useDocTheme } from '../../features/snippets/MonacoPane';
import { monaco } from '../../features/snippets/monaco-setup';

export interface ConfigEditorProps {
  value: string;
  /** Changes when the text is replaced from outside (load, save, import, sample): the editor then shows `value`. */
  revision: number;
  errors: McpConfigError[];
  onChange(value: string): void;
  /** Ctrl/Cmd+S in the editor. */
  onSave(): void;
  /** Set by the page to move the cursor to an error. */
  revealRef: React.RefObject<((line: number, column: number) => void) | null>;
}

/** mcp.json in Monaco (the app's one bundled Monaco, loaded with this page), with each error marked at its place. */
export default function ConfigEditor({ value, revision, errors, onChange, onSave, revealRef }: ConfigEditorProps) {
  const theme = useDocTheme();
  const editorRef = useRef<Parameters<OnMount>[0]>(undefined);
  // Errors can arrive before Monaco has loaded: mark them once it has.
  const [mounted, setMounted] = useState(false);
  const latest = useRef({ value, onSave });
  latest.current = { value, onSave };

  useEffect(() => {
    const ed = editorRef.current;
    if (ed && ed.getValue() !== latest.current.value) ed.setValue(latest.current.value);
  }, [revision]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      'hubdesk-mcp',
      errors.map((e) => {
        const word = model.getWordAtPosition({ lineNumber: e.line, column: e.column });
        return {
          severity: monaco.MarkerSeverity.Error,
          message: e.message,
          startLineNumber: e.line,
          startColumn: e.column,
          endLineNumber: e.line,
          endColumn: Math.max(word?.endColumn ?? 0, e.column + 1),
        };
      }),
    );
  }, [errors, revision, mounted]);

  return (
    <div className="mcp-editor" data-testid="mcp-editor">
      <Editor
        defaultValue={value}
        language="json"
        theme={theme}
        loading={<Loading label="Loading editor…" />}
        onMount={(ed) => {
          editorRef.current = ed;
          setMounted(true);
          ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave());
          revealRef.current = (lineNumber, column) => {
            ed.setPosition({ lineNumber, column });
            ed.revealLineInCenter(lineNumber);
            ed.focus();
          };
        }}
        onChange={(v) => onChange(v ?? '')}
        options={{
          ariaLabel: 'mcp.json',
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          lineHeight: 19,
          tabSize: 2,
          automaticLayout: true,
          padding: { top: 10, bottom: 10 },
          overviewRulerLanes: 0,
          scrollbar: { alwaysConsumeMouseWheel: false },
          // Tab moves focus out of the editor, so the page stays keyboard-complete.
          tabFocusMode: true,
        }}
      />
    </div>
  );
}
