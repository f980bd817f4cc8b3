import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef, useState } from 'react';
import { Loading } from '../../components/States';
import './monaco-setup';

export interface MonacoPaneProps {
  value: string;
  language: string;
  onChange(value: string): void;
  /**
   * Changes when the text is replaced from outside (Reset, a new generation, a token): the editor then shows `value`.
   * Without it, any `value` the editor did not itself emit is taken as a replacement.
   */
  revision?: string;
  /** Accessible name of the editor. */
  label: string;
}

const monacoLanguage: Record<string, string> = {
  python: 'python',
  js: 'javascript',
  sh: 'shell',
  json: 'json',
  yaml: 'yaml',
};

export function useDocTheme(): string {
  const read = () => (document.documentElement.dataset.theme === 'dark' ? 'hubdesk-dark' : 'hubdesk-light');
  const [theme, setTheme] = useState(read);
  useEffect(() => {
    const obs = new MutationObserver(() => setTheme(read()));
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => obs.disconnect();
  }, []);
  return theme;
}

/** One editable snippet pane: Monaco, bundled locally and loaded only when a pane opens. */
export default function MonacoPane({ value, language, onChange, label, revision }: MonacoPaneProps) {
  const theme = useDocTheme();
  // Uncontrolled while the user types (a controlled value lags keystrokes and drops them);
  // only a new revision (Reset, a new generation, a token) writes `value` into the editor.
  const editorRef = useRef<Parameters<OnMount>[0]>(undefined);
  const latest = useRef(value);
  latest.current = value;
  const emitted = useRef<string[]>([]);
  const trigger = revision ?? value;
  useEffect(() => {
    const ed = editorRef.current;
    const v = latest.current;
    if (!ed || v === ed.getValue()) return;
    if (revision === undefined && emitted.current.includes(v)) return; // a late render of the user's own typing
    ed.setValue(v);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [trigger]);
  const lines = value.split('\n').length;
  const height = Math.min(Math.max(lines * 19 + 24, 120), 560);
  return (
    <div className="snippet-editor" style={{ height }} data-testid="snippet-editor">
      <Editor
        defaultValue={value}
        onMount={(ed) => (editorRef.current = ed)}
        language={monacoLanguage[language] ?? 'plaintext'}
        theme={theme}
        onChange={(v) => {
          emitted.current = [...emitted.current.slice(-49), v ?? ''];
          onChange(v ?? '');
        }}
        loading={<Loading label="Loading editor…" />}
        options={{
          ariaLabel: label,
          // Tab moves the focus on, as everywhere else on the page (an editor that keeps Tab is a keyboard trap).
          tabFocusMode: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          lineHeight: 19,
          fontFamily: "ui-monospace, 'SF Mono', 'JetBrains Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
          tabSize: language === 'js' ? 2 : 4,
          insertSpaces: language !== 'js',
          detectIndentation: true,
          renderLineHighlight: 'none',
          automaticLayout: true,
          padding: { top: 10, bottom: 10 },
          wordWrap: 'off',
          scrollbar: { alwaysConsumeMouseWheel: false },
          overviewRulerLanes: 0,
        }}
      />
    </div>
  );
}
