import { useEffect, useRef, useState } from 'react';
import type { ConnectionTest } from '@shared/contract/network';
import type { AppErrorShape } from '@shared/errors';
import { testConnection } from '../../hooks/network';
import { formatDate } from '../../lib/format';
import { testRouteWords, testVerdict } from './network-text';

type Busy = 'hub' | 'url' | undefined;

/** What one test found: the verdict, the status, the route, the certificate that answered, the time; or why not. */
function TestResult({ result }: { result: ConnectionTest }) {
  const verdict = testVerdict(result);
  return (
    <div className={`net-test ${result.ok ? 'net-test-ok' : 'net-test-bad'}`} data-testid="network-test-result">
      <p className="net-test-verdict">
        {verdict}
        {result.status !== undefined && ` · HTTP ${result.status}`} · {result.ms} ms
      </p>
      <p className="net-test-line">
        <code>{result.url}</code>
        {result.route && <> — {testRouteWords(result.route)}</>}
      </p>
      {result.tls && (
        <p className="net-test-line">
          Certificate for <strong>{result.tls.subject}</strong>, issued by <strong>{result.tls.issuer}</strong>, valid
          until {formatDate(result.tls.validTo)}
        </p>
      )}
      {result.error && <p className="net-test-error">{result.error.message}</p>}
    </div>
  );
}

/**
 * "Test connection": one request to the Hub endpoint, or to any address, the way every call goes (main bounds it to
 * 15 s). The result is announced; the buttons wait while it runs.
 */
export function NetworkTest({ hubUrl, onTested }: { hubUrl?: string; onTested(): void }) {
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState<Busy>();
  const [result, setResult] = useState<ConnectionTest>();
  const [error, setError] = useState<AppErrorShape>();
  const hubButton = useRef<HTMLButtonElement>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  const started = useRef<Busy>(undefined);
  // The button that started a test is disabled while it runs, which drops the keyboard's focus: it goes back there.
  useEffect(() => {
    const was = started.current;
    if (busy || !was) return;
    started.current = undefined;
    if (document.activeElement === document.body) (was === 'hub' ? hubButton : urlInput).current?.focus();
  }, [busy]);

  const test = async (which: Exclude<Busy, undefined>) => {
    setBusy(which);
    started.current = which;
    setError(undefined);
    try {
      setResult(await testConnection(which === 'url' ? url.trim() : undefined));
      // A test reads the certificate files again: the trust shown may have changed.
      onTested();
    } catch (e) {
      setResult(undefined);
      setError(e as AppErrorShape);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div className="net-section" data-testid="network-test">
      <h3>Test connection</h3>
      <div className="net-test-actions">
        <button
          className="btn"
          ref={hubButton}
          disabled={!!busy}
          aria-describedby="network-test-hub-help"
          onClick={() => void test('hub')}
        >
          {busy === 'hub' ? 'Testing…' : 'Test connection'}
        </button>
        <span className="help" id="network-test-hub-help">
          Asks the Hub endpoint
          {hubUrl && (
            <>
              {' '}
              (<code>{hubUrl}</code>)
            </>
          )}{' '}
          the way every call goes: through the proxy in use, trusting the certificates below.
        </span>
      </div>
      <div className="field">
        <label htmlFor="network-test-url">Another address</label>
        <div className="field-row">
          <input
            id="network-test-url"
            ref={urlInput}
            type="url"
            spellCheck={false}
            placeholder="https://example.com"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && url.trim() && !busy && void test('url')}
            aria-invalid={!!error}
            aria-describedby={error ? 'network-test-error' : undefined}
          />
          <button className="btn" disabled={!url.trim() || !!busy} onClick={() => void test('url')}>
            {busy === 'url' ? 'Testing…' : 'Test'}
          </button>
        </div>
        {error && (
          <p className="field-error" id="network-test-error" role="alert">
            {error.message}
          </p>
        )}
      </div>
      <div aria-live="polite" aria-busy={!!busy} data-testid="network-test-live">
        {busy ? <p className="help">Testing… (at most 15 s)</p> : result && <TestResult result={result} />}
      </div>
    </div>
  );
}
