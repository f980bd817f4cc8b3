import { useState } from 'react';
import type { LocalServerStatus } from '@shared/contract/local-server';
import { useFieldAction } from '../../../hooks/field-action';
import { copyServerKey, type useLocalServer } from '../../../hooks/local';
import { CopyButton } from './CopyButton';

const MIN_KEY = 16;

type Server = ReturnType<typeof useLocalServer>;

/**
 * The server's key: Generate (or type one), then Copy key and Regenerate. The page only ever sees its last four
 * characters; Copy key asks main, which copies it (desktop) or hands it over once for the clipboard (web mode).
 */
export function ServerKey({ status, server }: { status: LocalServerStatus; server: Server }) {
  const { set, generate } = server;
  const [typing, setTyping] = useState(false);
  const key = useFieldAction((text) => set.run({ key: text }), {
    valid: (text) => text.length >= MIN_KEY,
    onDone: () => setTyping(false),
  });
  const busy = set.busy || generate.busy;
  const keyError = key.value && !key.ready ? `Use at least ${MIN_KEY} characters.` : undefined;
  const forRun = status.keySet && status.keySource === 'stored' && status.keyKept === false;

  return (
    <div className="field server-key">
      <span className="field-label" id="server-key-label">
        API key
      </span>
      {status.keySet ? (
        <>
          <p className="secret-state" data-testid="server-key">
            Set, ending in <span className="mono">…{status.last4}</span>
            {status.keySource === 'env' && ' (from HUBDESK_LOCAL_SERVER_KEY)'}
          </p>
          <div className="btn-row">
            <CopyButton label="key" text="Copy key" className="btn btn-sm btn-primary" copy={copyServerKey} />
            {status.keySource === 'stored' && (
              <>
                <button className="btn btn-sm" onClick={() => void generate.run()} disabled={busy}>
                  Regenerate
                </button>
                <button className="btn btn-sm btn-ghost" onClick={() => void set.run({ key: null })} disabled={busy}>
                  Forget key
                </button>
              </>
            )}
          </div>
          {status.keySource === 'stored' && (
            <p className="help">Regenerate replaces it at once: apps using the old key are refused until updated.</p>
          )}
        </>
      ) : (
        <div className="btn-row">
          <button
            className="btn btn-sm btn-primary"
            onClick={() => void generate.run()}
            disabled={busy}
            data-testid="server-generate"
          >
            {generate.busy ? 'Generating…' : 'Generate key'}
          </button>
          {!typing && (
            <button className="btn btn-sm btn-ghost" onClick={() => setTyping(true)}>
              Type my own…
            </button>
          )}
        </div>
      )}
      {!status.keySet && typing && (
        <form className="field" onSubmit={key.onSubmit}>
          <label htmlFor="server-key">Your key</label>
          <div className="field-row">
            <input
              id="server-key"
              type="password"
              autoComplete="off"
              value={key.value}
              onChange={(e) => key.setValue(e.target.value)}
              aria-invalid={keyError ? true : undefined}
              aria-describedby="server-key-help"
            />
            <button className="btn" type="submit" disabled={!key.ready || busy}>
              Save key
            </button>
          </div>
          {keyError && <p className="field-error">{keyError}</p>}
        </form>
      )}
      {forRun ? (
        <p className="server-warning" data-testid="server-key-lasts">
          This key lasts until HubDesk restarts: there is no keychain here to keep it (the web mode). To keep one, start
          HubDesk with <code>HUBDESK_LOCAL_SERVER_KEY</code> set to it.
        </p>
      ) : (
        !status.keySet && (
          <p className="help" id="server-key-help">
            Required: apps send it as a Bearer token. Kept encrypted by the OS keychain (without one, as in the web
            mode, until HubDesk restarts: set <code>HUBDESK_LOCAL_SERVER_KEY</code> to keep one). Only its last four
            characters are shown.
          </p>
        )
      )}
    </div>
  );
}
