import { useState } from 'react';
import type { HubAccess } from '@shared/contract/settings';
import type { AppError } from '@shared/errors';
import { useSettings } from '../../store/settings';
import { hubAccessText } from '../first-run/FirstRun';

/** Settings → Hub access: the first-run choice, changeable. */
export function HubAccessSetting() {
  const access = useSettings((s) => s.view?.values.hubAccess);
  const endpoint = useSettings((s) => s.view?.values.hubEndpoint);
  const update = useSettings((s) => s.update);
  const [error, setError] = useState<string>();
  const choose = (hubAccess: Exclude<HubAccess, 'ask'>) => {
    setError(undefined);
    update({ hubAccess }).catch((e: unknown) => setError((e as AppError).message));
  };
  const current = access === 'ask' ? undefined : access;
  return (
    <div className="card" data-testid="hub-access-setting">
      <h2>Hub access</h2>
      <div className="segmented" role="radiogroup" aria-label="Hub access">
        {(['online', 'offline'] as const).map((c) => (
          <button
            key={c}
            role="radio"
            aria-checked={current === c}
            className={current === c ? 'on' : ''}
            data-testid={`hub-access-${c}`}
            onClick={() => choose(c)}
          >
            {c === 'online' ? 'Use the Hub' : 'Stay offline'}
          </button>
        ))}
      </div>
      <p className="help">
        {current ? hubAccessText[current].sends : 'Not chosen yet: nothing is sent to the Hub.'}
        {current === 'online' && endpoint && (
          <>
            {' '}
            Endpoint: <code>{endpoint}</code> (set under Connections, or with HF_ENDPOINT).
          </>
        )}
      </p>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
