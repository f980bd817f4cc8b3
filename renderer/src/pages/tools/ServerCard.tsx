import { useState } from 'react';
import type { McpServerStatus } from '@shared/contract/mcp';
import { TryTool } from './TryTool';
import { useMcpServer } from '../../hooks/mcp';
import { plural } from '@shared/plural';

const stateLabel: Record<McpServerStatus['state'], string> = {
  stopped: 'stopped',
  starting: 'starting…',
  ready: 'ready',
  error: 'error',
  restarting: 'restarting',
  disabled: 'disabled',
};

function StateBadge({ s }: { s: McpServerStatus }) {
  const cls = s.state === 'ready' ? ' badge-ok' : s.state === 'error' || s.state === 'restarting' ? ' badge-warn' : '';
  const extra =
    s.state === 'ready'
      ? ` · ${plural(s.tools.length, 'tool')}`
      : s.state === 'restarting' && s.retryInMs !== undefined
        ? ` in ${Math.ceil(s.retryInMs / 1000)} s`
        : '';
  return (
    <span className={`badge${cls}`} data-testid="mcp-state">
      {stateLabel[s.state]}
      {extra}
    </span>
  );
}

/** One server: status, its tools (each with "Try it"), its stderr log, start/restart/stop. */
export function ServerCard({ server, onStatus }: { server: McpServerStatus; onStatus(): void }) {
  const [log, setLog] = useState<{ text: string; truncated: boolean }>();
  const [open, setOpen] = useState<string>();
  const { control, log: readLog } = useMcpServer(server.name);
  const acting = control.busy;
  // One line for the last failure: a start/restart/stop clears the log's too.
  const error = (readLog.error ?? control.error)?.message;

  const act = async (name: 'mcp.start' | 'mcp.restart' | 'mcp.stop') => {
    readLog.clear();
    await control.run(name);
    onStatus();
  };
  const toggleLog = async () => {
    if (log) return setLog(undefined);
    const text = await readLog.run();
    if (text) setLog(text);
  };
  const running = server.state === 'ready' || server.state === 'starting' || server.state === 'restarting';
  const headingId = `mcp-server-${server.name}`.replace(/[^\w-]/g, '_');

  return (
    <section className="card mcp-server" aria-labelledby={headingId} data-testid={`mcp-server-${server.name}`}>
      <header className="mcp-server-head">
        <h2 id={headingId}>{server.name}</h2>
        <span className="badge">{server.transport}</span>
        <StateBadge s={server} />
        {server.serverInfo && (
          <span className="muted small">
            {server.serverInfo.name} {server.serverInfo.version}
          </span>
        )}
        <span className="mcp-spacer" />
        {server.state !== 'disabled' &&
          (running ? (
            <>
              <button className="btn" disabled={acting} onClick={() => void act('mcp.restart')}>
                Restart
              </button>
              <button className="btn btn-ghost" disabled={acting} onClick={() => void act('mcp.stop')}>
                Stop
              </button>
            </>
          ) : (
            <button className="btn" disabled={acting} onClick={() => void act('mcp.start')}>
              {server.state === 'error' ? 'Restart' : 'Start'}
            </button>
          ))}
        <button className="btn btn-ghost" aria-expanded={!!log} onClick={() => void toggleLog()}>
          {log ? 'Hide log' : 'Log'}
        </button>
      </header>
      {server.message && (
        <p
          className={server.state === 'error' ? 'field-error' : 'muted'}
          role={server.state === 'error' ? 'alert' : undefined}
        >
          {server.message}
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
      {log && (
        <pre className="mcp-pre mcp-log" aria-label={`stderr of ${server.name}`} tabIndex={0}>
          {log.truncated && '… (older output dropped)\n'}
          {log.text || '(nothing written to stderr yet)'}
        </pre>
      )}
      {server.state === 'ready' && server.tools.length === 0 && <p className="muted">This server offers no tools.</p>}
      {server.tools.length > 0 && (
        <ul className="mcp-tools" aria-label={`Tools of ${server.name}`}>
          {server.tools.map((t) => (
            <li key={t.name}>
              <button
                className="mcp-tool-head"
                aria-expanded={open === t.name}
                onClick={() => setOpen(open === t.name ? undefined : t.name)}
              >
                <span className="mono">{t.name}</span>
                {t.description && <span className="muted small">{t.description}</span>}
              </button>
              {open === t.name && <TryTool server={server.name} tool={t} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
