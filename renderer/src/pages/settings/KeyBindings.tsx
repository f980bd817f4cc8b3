import { useState } from 'react';
import type { EndpointSetting, KeyBinding, KeyName, SettingsView } from '@shared/contract/settings';
import { endpointEnv } from '@shared/environment';
import type { AppError } from '@shared/errors';
import { useSettings } from '../../store/settings';

const settingLabels: Record<EndpointSetting, string> = {
  hubEndpoint: 'Hub endpoint',
  routerUrl: 'Inference router',
  falRestBase: 'fal REST base',
  ollamaHost: 'Ollama host',
};
const keyLabels: Record<KeyName, string> = {
  hfToken: 'Hugging Face token',
  falKey: 'fal key',
  ollamaApiKey: 'Ollama API key',
};
const why: Record<NonNullable<KeyBinding['source']>, string> = {
  builtin: "the key's own service",
  env: 'set outside the page',
  approved: 'you approved it',
};

function Row({ b, canApprove, keySet }: { b: KeyBinding; canApprove: boolean; keySet: boolean }) {
  const [error, setError] = useState<string>();
  const approve = async () => {
    setError(undefined);
    try {
      // Main shows its own dialog naming the host and the key; this page only learns the answer.
      await useSettings.getState().approveKey(b.setting);
    } catch (e) {
      setError((e as AppError).message);
    }
  };
  return (
    <tr data-testid={`binding-${b.setting}`}>
      <th scope="row">{settingLabels[b.setting]}</th>
      <td>
        <code>{b.origin}</code>
      </td>
      <td>
        {b.bound ? (
          <>
            <span className={keySet ? 'badge badge-ok' : 'badge'}>
              {keySet ? `gets the ${keyLabels[b.key]}` : `would get the ${keyLabels[b.key]} (not set)`}
            </span>{' '}
            <span className="muted">({why[b.source ?? 'builtin']})</span>
          </>
        ) : (
          <>
            <span className="badge">no {keyLabels[b.key]}</span>{' '}
            {canApprove ? (
              <button className="btn btn-ghost" onClick={() => void approve()}>
                Approve this host…
              </button>
            ) : (
              <span className="muted">start HubDesk with {endpointEnv[b.setting].name} set to send it here</span>
            )}
          </>
        )}
        {error && <p className="field-error">{error}</p>}
      </td>
    </tr>
  );
}

/** Which key goes where: a key is sent only to its own service, to hosts set outside the page, or approved ones. */
export function KeyBindingsCard({ view }: { view: SettingsView }) {
  return (
    <div className="card" data-testid="key-bindings">
      <h2>Where your keys go</h2>
      <p className="help">
        Each key is sent only to the hosts it was issued for. A host typed on this page gets no key until you approve it
        {view.canApproveHosts ? ' in a HubDesk dialog' : ' by setting it in the environment'}.
      </p>
      <table className="bindings">
        <tbody>
          {view.bindings.map((b) => (
            <Row
              key={b.setting}
              b={b}
              canApprove={view.canApproveHosts}
              keySet={!!view.secrets.find((s) => s.name === b.key)?.set}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
