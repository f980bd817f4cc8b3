import { useEffect, useState } from 'react';
import type { LocalModel } from '@shared/contract/local-models';
import { useLocalServer } from '../../../hooks/local';
import { ErrorLine } from '../Modal';
import { ServerAppsDialog } from './ServerApps';
import { RequestLog } from './RequestLog';
import { ServerAccess } from './ServerAccess';
import { ServerKey } from './ServerKey';
import { ServerSamples } from './ServerSamples';

/**
 * The local OpenAI-compatible server: off by default; on with a key; its URL, its port, a curl to try it, and the
 * setups of other apps for it.
 */
export function ServerCard({ models }: { models?: LocalModel[] }) {
  const server = useLocalServer();
  const { status, set } = server;
  const [port, setPort] = useState('');
  const [apps, setApps] = useState(false);
  useEffect(() => {
    if (status) setPort(String(status.port));
  }, [status?.port]); // eslint-disable-line react-hooks/exhaustive-deps

  const portNum = Number(port);
  const portError = /^\d+$/.test(port) && portNum >= 1024 && portNum <= 65_535 ? undefined : 'Use 1024–65535.';

  return (
    <section className="card server-card" aria-labelledby="server-title" data-testid="server-card">
      <div className="card-head">
        <h2 id="server-title">Local server</h2>
        <span className="spacer" />
        {status && (
          <button
            type="button"
            role="switch"
            className={`switch${status.enabled ? ' on' : ''}`}
            aria-checked={status.enabled}
            aria-labelledby="server-title"
            onClick={() => void set.run({ enabled: !status.enabled })}
            disabled={set.busy}
            data-testid="server-switch"
          >
            <span className="switch-knob" aria-hidden="true" />
          </button>
        )}
      </div>
      {server.state === 'error' && !status ? (
        <p className="field-error" role="alert">
          Could not ask for the server’s state: {server.error.message}{' '}
          <button className="btn btn-sm" onClick={server.reload}>
            Try again
          </button>
        </p>
      ) : !status ? (
        <p className="muted small">Asking…</p>
      ) : (
        <>
          <p className="small server-state" data-testid="server-state">
            {status.running ? (
              <>
                Running at <code data-testid="server-url">{status.url}</code>
              </>
            ) : status.enabled ? (
              // Why it is not running is the error line below; without one it is on its way up.
              status.error ? (
                'Not running.'
              ) : (
                'Starting…'
              )
            ) : (
              'Off. Turn it on to let other apps on this machine use the built-in engine through an OpenAI-compatible API (127.0.0.1 only).'
            )}
          </p>
          {status.error && (
            <p className="field-error" role="alert" data-testid="server-error">
              {status.error.message}
            </p>
          )}
          <form
            className="field"
            onSubmit={(e) => {
              e.preventDefault();
              if (!portError && portNum !== status.port) void set.run({ port: portNum });
            }}
          >
            <label htmlFor="server-port">Port</label>
            <div className="field-row">
              <input
                id="server-port"
                inputMode="numeric"
                value={port}
                onChange={(e) => setPort(e.target.value)}
                aria-invalid={portError ? true : undefined}
              />
              <button className="btn" type="submit" disabled={!!portError || portNum === status.port || set.busy}>
                Save port
              </button>
            </div>
            {portError && <p className="field-error">{portError}</p>}
          </form>
          <ServerKey status={status} server={server} />
          <ServerSamples status={status} models={models} />
          <div className="field">
            <span className="field-label">Use from another app</span>
            <p className="help">
              Ready setups for the OpenAI SDKs, the AI SDK, LangChain, Continue, Cline, Open WebUI, Zed, VS Code, Claude
              Code and curl, filled for a model on disk.
            </p>
            <button className="btn btn-sm" onClick={() => setApps(true)} data-testid="server-apps">
              Show setups…
            </button>
          </div>
          <ServerAccess status={status} onChange={set.run} busy={set.busy} />
          <RequestLog
            keepBodies={status.keepBodies}
            onKeepBodies={(k) => void set.run({ keepBodies: k })}
            busy={set.busy}
          />
        </>
      )}
      <ErrorLine error={set.error ?? server.generate.error} />
      {apps && <ServerAppsDialog onClose={() => setApps(false)} />}
    </section>
  );
}
