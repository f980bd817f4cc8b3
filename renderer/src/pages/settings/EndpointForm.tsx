import { useEffect, useId, useRef, useState } from 'react';
import { endpointPresets, type Endpoint, type EndpointPreset, type EndpointSave } from '@shared/contract/endpoints';
import { endpointPresetInfo } from '../../lib/endpoint-presets';

/** The origin a key would go to, or undefined while the address is not one yet. */
function originOf(url: string): string | undefined {
  try {
    return /^https?:\/\//i.test(url.trim()) ? new URL(url.trim()).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Add or edit an endpoint: a preset fills the usual address and a name (until the user types their own), the key is
 * a password field that never shows a stored key. Saving is the caller's (main runs the doctor on it).
 */
export function EndpointForm({
  endpoint,
  busy,
  error,
  onSave,
  onCancel,
}: {
  /** Absent: a new endpoint. */
  endpoint?: Endpoint;
  busy: boolean;
  error?: string;
  onSave(input: EndpointSave): void;
  onCancel(): void;
}) {
  const id = useId();
  const [preset, setPreset] = useState<EndpointPreset>(endpoint?.preset ?? 'llama.cpp');
  const [name, setName] = useState(endpoint?.name ?? endpointPresetInfo['llama.cpp'].label);
  const [baseUrl, setBaseUrl] = useState(endpoint?.baseUrl ?? endpointPresetInfo['llama.cpp'].url);
  const [apiKey, setApiKey] = useState('');
  const first = useRef<HTMLSelectElement>(null);
  // The form opens on its first field, for the keyboard.
  useEffect(() => first.current?.focus(), []);

  const choosePreset = (next: EndpointPreset) => {
    const was = endpointPresetInfo[preset];
    // What the user typed stays; what the last preset filled in follows the new one.
    if (!name.trim() || name === was.label) setName(endpointPresetInfo[next].label);
    if (!baseUrl.trim() || baseUrl === was.url) setBaseUrl(endpointPresetInfo[next].url);
    setPreset(next);
  };
  // A key goes to the origin it was entered with: a new origin drops a stored one unless it is typed again.
  const keyDropped = !!endpoint?.hasKey && !apiKey && originOf(baseUrl) !== endpoint.keyOrigin;
  const submit = () =>
    onSave({
      ...(endpoint ? { id: endpoint.id } : {}),
      name: name.trim(),
      preset,
      baseUrl: baseUrl.trim(),
      ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
    });

  return (
    <form
      className="endpoint-form"
      aria-label={endpoint ? `Edit ${endpoint.name}` : 'Add endpoint'}
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) submit();
      }}
    >
      <div className="endpoint-form-grid">
        <label htmlFor={`${id}-preset`}>Server</label>
        <select
          ref={first}
          id={`${id}-preset`}
          value={preset}
          onChange={(e) => choosePreset(e.target.value as EndpointPreset)}
        >
          {endpointPresets.map((p) => (
            <option key={p} value={p}>
              {endpointPresetInfo[p].label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-url`}>Base URL</label>
        <input
          id={`${id}-url`}
          value={baseUrl}
          spellCheck={false}
          inputMode="url"
          placeholder="http://192.168.1.20:8000"
          aria-describedby={`${id}-url-help`}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
        <p className="help" id={`${id}-url-help`}>
          With or without <code>/v1</code>: HubDesk finds which one the server answers.
        </p>
        <label htmlFor={`${id}-key`}>API key</label>
        <input
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder={endpoint?.hasKey ? 'Set: type to replace' : 'Optional'}
          aria-describedby={`${id}-key-help`}
          onChange={(e) => setApiKey(e.target.value)}
        />
        <p className="help" id={`${id}-key-help`}>
          {keyDropped
            ? `The stored key goes to ${endpoint.keyOrigin} only: with this new address it is dropped unless you type it again.`
            : `Kept encrypted in HubDesk's main process and sent only to ${originOf(baseUrl) ?? 'this address'}.`}
        </p>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="endpoint-actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {busy ? 'Checking the server…' : 'Save'}
        </button>
        <button className="btn btn-ghost" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
