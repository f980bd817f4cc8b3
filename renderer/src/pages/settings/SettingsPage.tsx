import { useState } from 'react';
import type { SecretName, SecretStatus, Theme } from '@shared/contract/settings';
import type { AppError } from '@shared/errors';
import { RadioGroup } from '../../components/RadioGroup';
import { ErrorState, Loading } from '../../components/States';
import { useSettings } from '../../store/settings';
import { KeyBindingsCard } from './KeyBindings';
import { SecretStorageNote } from './SecretStorageNote';
import { HubAccessSetting } from './HubAccessSetting';
import { HardwareSettings } from './HardwareSettings';
import { EndpointsSettings } from './EndpointsSettings';
import { NetworkSettings } from './NetworkSettings';
import { SecretState } from './SecretState';
import { TextSetting, type TextField } from './TextSetting';
import { DocumentsSettings } from '../chat/documents/DocumentsSettings';

const textFields: TextField[] = [
  { key: 'ollamaHost', label: 'Ollama host', help: 'Where your Ollama server listens.', env: 'OLLAMA_HOST' },
  { key: 'hubEndpoint', label: 'Hub endpoint', help: 'The Hugging Face Hub (or a mirror).', env: 'HF_ENDPOINT' },
  {
    key: 'routerUrl',
    label: 'Inference router',
    help: 'Hosted models are called through this router.',
    env: 'HUBDESK_ROUTER_URL',
  },
  { key: 'defaultProvider', label: 'Default provider', help: 'hf-inference, auto, or a provider id such as together.' },
  { key: 'billTo', label: 'Bill to organisation', help: 'Sent as X-HF-Bill-To; empty bills your own account.' },
  {
    key: 'falRestBase',
    label: 'fal REST base',
    help: 'Where temporary fal tokens are requested.',
    env: 'HUBDESK_FAL_REST_BASE',
  },
];

const secretLabels: Record<SecretName, { label: string; help: string }> = {
  hfToken: { label: 'Hugging Face token', help: 'For gated models, the Hub API and hosted chat.' },
  falKey: { label: 'fal key', help: 'Used only in main to mint 2-minute tokens for snippets.' },
  ollamaApiKey: { label: 'Ollama API key', help: 'For remote Ollama hosts and ollama.com web search.' },
  proxy: {
    label: 'Proxy',
    help: 'http://host:port, or http://user:password@host:port when the proxy asks for credentials.',
  },
};

function SecretSetting({ status }: { status: SecretStatus }) {
  const { setSecret, clearSecret } = useSettings();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string>();
  const meta = secretLabels[status.name];
  const run = async (fn: () => Promise<void>) => {
    setError(undefined);
    try {
      await fn();
      setDraft('');
    } catch (e) {
      setError((e as AppError).message);
    }
  };
  return (
    <div className="field" data-testid={`secret-${status.name}`}>
      <label htmlFor={`secret-${status.name}`}>{meta.label}</label>
      <SecretState status={status} shown={status.last4 ? `ends in …${status.last4}` : ''} />
      <div className="field-row">
        <input
          id={`secret-${status.name}`}
          type="password"
          autoComplete="off"
          value={draft}
          placeholder={status.set ? 'Replace…' : 'Paste to set'}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button className="btn" disabled={!draft} onClick={() => void run(() => setSecret(status.name, draft))}>
          Save
        </button>
        {status.set && (
          <button className="btn btn-ghost" onClick={() => void run(() => clearSecret(status.name))}>
            Clear
          </button>
        )}
      </div>
      <p className="help">
        {meta.help}{' '}
        {!status.persistent &&
          `Kept in memory until HubDesk stops; set ${status.envVar} in the environment to keep it.`}
      </p>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

export function SettingsPage() {
  const { view, error, load, update } = useSettings();
  if (!view) {
    return (
      <section className="page">
        <header className="page-header">
          <h1>Settings</h1>
        </header>
        {error ? <ErrorState error={error} onRetry={() => void load()} /> : <Loading />}
      </section>
    );
  }
  const themes: Theme[] = ['system', 'light', 'dark'];
  return (
    <section className="page page-narrow">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <div className="card">
        <h2>Appearance</h2>
        <RadioGroup label="Theme" items={themes} value={view.values.theme} onChange={(t) => void update({ theme: t })}>
          {(t) => (t === 'system' ? 'Follow system' : t[0].toUpperCase() + t.slice(1))}
        </RadioGroup>
      </div>
      <HubAccessSetting />
      <div className="card">
        <h2>Connections</h2>
        {textFields.map((f) => (
          <TextSetting key={f.key} field={f} />
        ))}
      </div>
      <NetworkSettings />
      <EndpointsSettings />
      <HardwareSettings />
      <DocumentsSettings />
      <div className="card">
        <h2>Secrets</h2>
        <p className="help">Secrets stay in HubDesk&apos;s main process: this page only learns whether one is set.</p>
        <SecretStorageNote view={view} />
        {view.secrets
          .filter((s) => s.name !== 'proxy')
          .map((s) => (
            <SecretSetting key={s.name} status={s} />
          ))}
      </div>
      <KeyBindingsCard view={view} />
    </section>
  );
}
