import { useEffect, useRef, useState } from 'react';
import type { HubAccess } from '@shared/contract/settings';
import type { AppError } from '@shared/errors';
import { Logo } from '../../components/Logo';
import { useSettings } from '../../store/settings';
import './first-run.css';

/** What each choice sends, shared with the Settings control so both say the same thing. */
export const hubAccessText: Record<Exclude<HubAccess, 'ask'>, { title: string; sends: string }> = {
  online: {
    title: 'Use the Hugging Face Hub (recommended)',
    sends:
      'Search words, filters and the ids of the models you open are sent to the Hub endpoint below; your token too, ' +
      'when you set one (for gated and private repos). Answers are cached on this machine.',
  },
  offline: {
    title: 'Stay offline',
    sends:
      'Nothing is sent to the Hub. Search works on the embedded catalogue (tasks, libraries and the models, ' +
      'datasets and Spaces that @huggingface/tasks names) and on Hub pages cached earlier.',
  },
};

/** The full first-run screen: shown instead of the app until the user chooses; nothing goes to the Hub before. */
export function FirstRun() {
  const endpoint = useSettings((s) => s.view?.values.hubEndpoint ?? '');
  const fromEnv = useSettings((s) => s.view?.sources.hubEndpoint === 'env');
  const update = useSettings((s) => s.update);
  const [busy, setBusy] = useState<HubAccess>();
  const [error, setError] = useState<string>();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);

  const choose = async (hubAccess: Exclude<HubAccess, 'ask'>) => {
    setBusy(hubAccess);
    setError(undefined);
    try {
      await update({ hubAccess });
    } catch (e) {
      setError((e as AppError).message);
      setBusy(undefined);
    }
  };

  return (
    <main className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <div className="first-run-box">
        <header className="first-run-head">
          <Logo size={40} />
          <div>
            <h1 id="first-run-title">Welcome to HubDesk</h1>
            <p className="muted">Where should search and model details come from? You can change this in Settings.</p>
          </div>
        </header>
        <div className="first-run-choices" role="group" aria-label="Hub access">
          {(['online', 'offline'] as const).map((c) => (
            <button
              key={c}
              ref={c === 'online' ? first : undefined}
              type="button"
              className={`first-run-choice${c === 'online' ? ' recommended' : ''}`}
              data-testid={`first-run-${c}`}
              aria-describedby={`first-run-${c}-sends`}
              disabled={!!busy || !endpoint}
              onClick={() => void choose(c)}
            >
              <span className="first-run-choice-title">{hubAccessText[c].title}</span>
              <span id={`first-run-${c}-sends`} className="first-run-choice-body">
                {hubAccessText[c].sends}
              </span>
              {busy === c && <span className="small muted">Saving…</span>}
            </button>
          ))}
        </div>
        <p className="first-run-endpoint small">
          Hub endpoint: <code data-testid="first-run-endpoint">{endpoint || '…'}</code>{' '}
          <span className="badge">{fromEnv ? 'from HF_ENDPOINT' : 'default'}</span>
        </p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </main>
  );
}
