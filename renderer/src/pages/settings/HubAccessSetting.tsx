import { useState } from 'react';
import type { HubAccess } from '@shared/contract/settings';
import type { AppError } from '@shared/errors';
import { RadioGroup } from '../../components/RadioGroup';
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
      <RadioGroup
        label="Hub access"
        items={['online', 'offline'] as const}
        value={current}
        onChange={choose}
        testid={(c) => `hub-access-${c}`}
      >
        {(c) => (c === 'online' ? 'Use the Hub' : 'Stay offline')}
      </RadioGroup>
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
