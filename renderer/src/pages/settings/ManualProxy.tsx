import { useRef, useState } from 'react';
import type { AppError } from '@shared/errors';
import { afterPaint } from '../../lib/after-paint';
import { useSettings } from '../../store/settings';
import { SecretState } from './SecretState';

/**
 * The manual proxy: kept in main as a secret (it may carry a password), so the page sends it and never reads it
 * back; what it shows is main's masked copy. Main refuses an address it cannot use (SOCKS, a page…) in words.
 */
export function ManualProxy({ shown, onChanged }: { shown?: string; onChanged(): void }) {
  const status = useSettings((s) => s.view?.secrets.find((x) => x.name === 'proxy'));
  const { setSecret, clearSecret } = useSettings.getState();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const fromEnv = status?.source === 'env';

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
      setDraft('');
      onChanged();
      // Save (now empty) is disabled and Clear may be gone: the keyboard's focus goes back to the field.
      afterPaint(() => document.activeElement === document.body && input.current?.focus());
    } catch (e) {
      setError((e as AppError).message);
    } finally {
      setBusy(false);
    }
  };
  const save = () => draft.trim() && void run(() => setSecret('proxy', draft.trim()));

  return (
    <div className="field" data-testid="manual-proxy">
      <label htmlFor="network-proxy">Manual proxy</label>
      <SecretState status={status} shown={shown && <code>{shown}</code>} testid="manual-proxy-state" />
      <div className="field-row">
        <input
          id="network-proxy"
          ref={input}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          placeholder={status?.set ? 'Replace…' : 'http://proxy.example.com:8080'}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && save()}
          aria-invalid={!!error}
          aria-describedby={`network-proxy-help${error ? ' network-proxy-error' : ''}`}
        />
        <button className="btn" disabled={!draft.trim() || busy} onClick={save}>
          Save
        </button>
        {status?.set && !fromEnv && (
          <button className="btn btn-ghost" disabled={busy} onClick={() => void run(() => clearSecret('proxy'))}>
            Clear
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" id="network-proxy-error" role="alert">
          {error}
        </p>
      )}
      <p className="help" id="network-proxy-help">
        http://host:port, or http://user:password@host:port when the proxy asks for credentials. Kept like your other
        secrets. A proxy set here comes first, then the environment&apos;s (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY), then
        the system&apos;s settings.{' '}
        {status &&
          !status.persistent &&
          !fromEnv &&
          `Kept in memory until HubDesk stops; set ${status.envVar} to keep it.`}
        {fromEnv && `Set in the environment when HubDesk started: change it there.`}
      </p>
    </div>
  );
}
