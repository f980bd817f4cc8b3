import { lazy, Suspense, useRef, useState } from 'react';
import { Empty, ErrorState, Loading } from '../../components/States';
import { ServerCard } from './ServerCard';
import { useMcp } from '../../hooks/mcp';
import './tools.css';

const ConfigEditor = lazy(() => import('./ConfigEditor'));

/** What "Insert a sample" puts in the editor: a local server and a remote one, in the common notation. */
const SAMPLE_CONFIG = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/path/to/a/folder"]
    },
    "hf-mcp-server": {
      "url": "https://huggingface.co/mcp",
      "headers": { "Authorization": "Bearer <YOUR_HF_TOKEN>" },
      "disabled": true
    }
  }
}
`;

/** The Tools screen: MCP servers from mcp.json, their status and tools, and the file itself. */
export function ToolsPage() {
  const m = useMcp();
  const reveal = useRef<((line: number, column: number) => void) | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState('');

  if (m.loadError && !m.config)
    return <ErrorState error={m.loadError} title="MCP servers unavailable" onRetry={() => void m.load()} />;
  if (!m.config) return <Loading label="Reading mcp.json…" />;
  const servers = m.servers?.servers ?? [];
  const errors = m.config.errors;

  const importPasted = async () => {
    if (await m.importText(pasted, 'the pasted config')) setPasted('');
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    await m.importText(await file.text(), file.name);
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <section className="page tools-page">
      <header className="page-header">
        <h1>Tools</h1>
        <span className="muted">MCP servers, in the mcpServers notation of Claude Desktop, Cursor and LM Studio</span>
      </header>

      <div className="tools-layout">
        <div className="tools-servers" aria-label="Servers">
          {servers.length === 0 ? (
            <Empty
              title="No MCP servers yet"
              action={
                <button className="btn" onClick={() => m.replaceDraft(SAMPLE_CONFIG)}>
                  Insert a sample config
                </button>
              }
            >
              Add servers to mcp.json on the right (a local one with <code>command</code>, a remote one with{' '}
              <code>url</code>), or import the file of another app.
            </Empty>
          ) : (
            servers.map((s) => <ServerCard key={s.name} server={s} onStatus={() => void m.refreshStatus()} />)
          )}
        </div>

        <div className="card tools-config">
          <h2>mcp.json</h2>
          <Suspense fallback={<Loading label="Loading editor…" />}>
            <ConfigEditor
              value={m.draft}
              revision={m.editorRevision}
              errors={errors}
              onChange={m.setDraft}
              onSave={() => void m.save()}
              revealRef={reveal}
            />
          </Suspense>
          {errors.length > 0 && (
            <ul className="mcp-errors" aria-label="Problems in mcp.json" data-testid="mcp-errors">
              {errors.map((e, i) => (
                <li key={i}>
                  <button className="btn btn-ghost" onClick={() => reveal.current?.(e.line, e.column)}>
                    Line {e.line}, column {e.column}
                  </button>{' '}
                  {e.message}
                </li>
              ))}
            </ul>
          )}
          <div className="field-row">
            <button className="btn btn-primary" disabled={!m.dirty || m.busy} onClick={() => void m.save()}>
              Save
            </button>
            <button className="btn" disabled={!m.dirty || m.busy} onClick={m.revert}>
              Revert
            </button>
            <button className="btn" disabled={m.busy} onClick={() => fileInput.current?.click()}>
              Import a file…
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".json,application/json"
              hidden
              data-testid="mcp-import-file"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </div>
          <details className="mcp-paste">
            <summary>Paste another app’s config to import</summary>
            <label htmlFor="mcp-paste-text">
              The text of claude_desktop_config.json, Cursor’s or LM Studio’s mcp.json, or VS Code’s mcp.json: its
              servers are added to yours (a server of the same name is replaced).
            </label>
            <textarea
              id="mcp-paste-text"
              className="mono"
              rows={5}
              value={pasted}
              spellCheck={false}
              onChange={(e) => setPasted(e.target.value)}
            />
            <button className="btn" disabled={!pasted.trim() || m.busy} onClick={() => void importPasted()}>
              Import pasted config
            </button>
          </details>
          {m.notice && (
            <p className={m.notice.kind === 'ok' ? 'help' : 'field-error'} role="status">
              {m.notice.text}
            </p>
          )}
          <p className="help">
            Values in <code>env</code> and <code>headers</code> are secrets: mcp.json keeps them masked (
            <code>"•••• abcd"</code>), and saving a mask unchanged keeps the value for the URL’s origin or the command
            it was typed for: change those and type the value again.{' '}
            {m.config.persistentSecrets
              ? 'They are stored encrypted with your OS keychain.'
              : 'Here they last only until HubDesk stops (no OS keychain in the web mode): paste them again after a restart.'}{' '}
            Ctrl+S saves; Tab leaves the editor.
          </p>
        </div>
      </div>
    </section>
  );
}
