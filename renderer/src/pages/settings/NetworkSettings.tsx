import { useCallback, useState } from 'react';
import type { NetworkStatus } from '@shared/contract/network';
import { ErrorState, Loading } from '../../components/States';
import { useNetworkStatus } from '../../hooks/network';
import { useSettings } from '../../store/settings';
import { ManualProxy } from './ManualProxy';
import { NetworkTest } from './NetworkTest';
import { TextSetting, type TextField } from './TextSetting';
import { certificates, routeLine, systemStoreLine } from './network-text';
import './network.css';

const noProxyField: TextField = {
  key: 'noProxy',
  label: 'Bypass list',
  help: 'Hosts reached directly, never through the proxy: names, domains (.corp.example), addresses and ports, separated by commas; added to NO_PROXY. This computer (localhost) always is.',
  placeholder: '.corp.example, 10.0.0.5, intranet:8080',
};
const caFileField: TextField = {
  key: 'caFile',
  label: 'Extra certificates (PEM file)',
  help: "The full path of your company's CA certificate (a .pem or .crt file, Base-64): trusted beside the ones below.",
  placeholder: '/etc/ssl/certs/company-ca.pem',
};

/** Where the Hub's requests go now: through which proxy and from where, or direct and why; or what is wrong. */
function ProxyInUse({ status }: { status: NetworkStatus }) {
  const { hub, environment } = status;
  return (
    <dl className="net-facts" data-testid="network-proxy-status">
      <dt>Proxy in use</dt>
      <dd>
        {hub.route && <span data-testid="network-route">{routeLine(hub.route, hub.url, environment)}</span>}
        {hub.error && (
          <span className="net-error" role="alert">
            {hub.error}
          </span>
        )}
        <span className="help net-fact-note">
          For the Hub (<code>{hub.url}</code>), its downloads and hosted models.
        </span>
      </dd>
      <dt>Environment</dt>
      <dd>
        {environment.length ? (
          <ul className="net-vars">
            {environment.map((v) => (
              <li key={v.name}>
                <code>{v.name}</code> = <code>{v.value}</code>
              </li>
            ))}
          </ul>
        ) : (
          'No proxy variables set'
        )}
      </dd>
      <dt>System settings</dt>
      <dd>
        {status.system
          ? 'Followed (PAC included) when neither Settings nor the environment set a proxy.'
          : "Not used: the web mode uses the environment; the desktop app also follows the system's proxy settings."}
      </dd>
    </dl>
  );
}

/** What outbound TLS trusts, source by source. There is no switch that turns certificate checks off. */
function TrustSummary({ trust }: { trust: NetworkStatus['trust'] }) {
  const file = (label: string, f: NonNullable<NetworkStatus['trust']['envFile']>) => (
    <li>
      {label}: <code>{f.path}</code>
      {f.count !== undefined && ` — ${certificates(f.count)}`}
      {f.error && <span className="net-error"> — {f.error}</span>}
    </li>
  );
  return (
    <ul className="net-trust" data-testid="network-trust" aria-label="Trusted certificates">
      <li>Node&apos;s own certificate authorities (always)</li>
      <li>{systemStoreLine(trust)}</li>
      {trust.envFile ? file('NODE_EXTRA_CA_CERTS', trust.envFile) : <li>NODE_EXTRA_CA_CERTS: not set</li>}
      {trust.settingsFile ? (
        file('Extra certificates file', trust.settingsFile)
      ) : (
        <li>Extra certificates file: none</li>
      )}
    </ul>
  );
}

/**
 * Settings → Network: the proxy the Hub's requests take and where it was set, the manual proxy, the bypass list,
 * the certificates trusted, and a connection test. Every change made here asks main for the status again.
 */
export function NetworkSettings() {
  const hubEndpoint = useSettings((s) => s.view?.values.hubEndpoint);
  const [changes, setChanges] = useState(0);
  const changed = useCallback(() => setChanges((n) => n + 1), []);
  // Asked again when the Hub endpoint or anything in this card changes; the status shown stays until the answer.
  const status = useNetworkStatus([hubEndpoint, changes]);
  const shown = status.state === 'ok' ? status.data : status.last;

  return (
    <div className="card" data-testid="network-settings">
      <h2>Network</h2>
      <p className="help">
        How HubDesk reaches the Hub, downloads and hosted services: behind a company proxy, or one that inspects TLS,
        set it here. Ollama and servers on this computer are always reached directly.
      </p>
      {status.state === 'error' &&
        (shown ? (
          <p className="field-error" role="alert">
            The network status could not be read again: {status.error.message}{' '}
            <button className="btn btn-ghost" onClick={status.reload}>
              Try again
            </button>
          </p>
        ) : (
          <ErrorState error={status.error} title="The network status could not be read" onRetry={status.reload} />
        ))}
      {!shown && status.state === 'loading' && <Loading label="Reading the network settings…" />}
      {shown && (
        <>
          <div className="net-section net-section-first">
            <h3>Proxy</h3>
            <ProxyInUse status={shown} />
            <ManualProxy shown={shown.manual} onChanged={changed} />
            <TextSetting field={noProxyField} onSaved={changed} />
          </div>
          <div className="net-section">
            <h3>Certificates</h3>
            <TextSetting field={caFileField} onSaved={changed} />
            <TrustSummary trust={shown.trust} />
          </div>
        </>
      )}
      <NetworkTest hubUrl={shown?.hub.url} onTested={changed} />
    </div>
  );
}
