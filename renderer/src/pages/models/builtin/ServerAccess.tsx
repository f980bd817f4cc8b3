import type { LocalServerStatus } from '@shared/contract/local-server';
import { useFieldAction } from '../../../hooks/field-action';
import { normalizeOrigin, ORIGIN_HINT } from '@shared/server-origin';

type Change = { lan?: boolean; corsOrigins?: string[] };

/**
 * Who besides this machine's apps may use the server: other machines on the network (a switch, with its warning),
 * and web pages by their origin (none by default: a page cannot read the server's answers without a grant).
 */
export function ServerAccess({
  status,
  onChange,
  busy,
}: {
  status: LocalServerStatus;
  onChange: (change: Change) => Promise<unknown>;
  busy: boolean;
}) {
  /** The origin typed, as the server compares them, when it is one and not allowed yet. */
  const newOrigin = (text: string) => {
    const normalized = normalizeOrigin(text);
    return normalized && !status.corsOrigins.includes(normalized) ? normalized : undefined;
  };
  const origin = useFieldAction((text) => onChange({ corsOrigins: [...status.corsOrigins, newOrigin(text)!] }), {
    valid: (text) => !!newOrigin(text),
  });
  const typed = origin.value.trim();
  const originError = typed && !normalizeOrigin(typed) ? `Not an origin: ${ORIGIN_HINT}.` : undefined;
  const already = !!typed && !originError && !origin.ready;

  return (
    <div className="server-access" data-testid="server-access">
      <div className="switch-row">
        <button
          type="button"
          role="switch"
          id="server-lan"
          className={`switch${status.lan ? ' on' : ''}`}
          aria-checked={status.lan}
          aria-labelledby="server-lan-label"
          aria-describedby="server-lan-help"
          onClick={() => void onChange({ lan: !status.lan })}
          disabled={busy}
          data-testid="server-lan"
        >
          <span className="switch-knob" aria-hidden="true" />
        </button>
        <label id="server-lan-label" htmlFor="server-lan">
          Serve on the local network
        </label>
      </div>
      <p id="server-lan-help" className={status.lan ? 'server-warning' : 'help'} data-testid="server-lan-help">
        Anyone on your network who has the key can use your models, and requests travel unencrypted (plain HTTP).
        {status.lan ? ' Turn it off on a network you do not trust.' : ' Off: only apps on this machine can connect.'}
      </p>
      {status.lan && status.lanUrls && status.lanUrls.length > 0 && (
        <ul className="server-lan-urls" aria-label="Addresses on the network" data-testid="server-lan-urls">
          {status.lanUrls.map((u) => (
            <li key={u}>
              <code>{u}</code>
            </li>
          ))}
        </ul>
      )}

      <form className="field" onSubmit={origin.onSubmit}>
        <label htmlFor="server-origin">Allowed origins</label>
        {status.corsOrigins.length > 0 && (
          <ul className="server-origins" data-testid="server-origins">
            {status.corsOrigins.map((o) => (
              <li key={o}>
                <code>{o}</code>
                <button
                  type="button"
                  className="btn btn-sm"
                  aria-label={`Remove ${o}`}
                  disabled={busy}
                  onClick={() => void onChange({ corsOrigins: status.corsOrigins.filter((x) => x !== o) })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="field-row">
          <input
            id="server-origin"
            placeholder="http://localhost:5173"
            autoComplete="off"
            spellCheck={false}
            value={origin.value}
            onChange={(e) => origin.setValue(e.target.value)}
            aria-invalid={originError ? true : undefined}
            aria-describedby="server-origin-help"
          />
          <button className="btn" type="submit" disabled={!origin.ready || busy}>
            Allow
          </button>
        </div>
        <p id="server-origin-help" className={originError ? 'field-error' : 'help'}>
          {originError ??
            (already
              ? 'Already allowed.'
              : 'Web pages (and browser extensions) that may call the server; any other page is refused. Apps outside a browser do not need this.')}
        </p>
      </form>
    </div>
  );
}
