import type { ReactNode } from 'react';
import type { SecretStatus } from '@shared/contract/settings';

/** Where a secret stands, never its value: set or not, what may be shown of it, and where it is kept. */
export function SecretState({ status, shown, testid }: { status?: SecretStatus; shown: ReactNode; testid?: string }) {
  return (
    <p className="secret-state" data-testid={testid}>
      {status?.set ? (
        <>
          <span className="badge badge-ok">set</span> {shown}{' '}
          <span className="muted">
            (
            {status.source === 'env'
              ? `from ${status.envVar}`
              : status.source === 'stored'
                ? 'stored encrypted'
                : 'this session only'}
            )
          </span>
        </>
      ) : (
        <span className="badge">not set</span>
      )}
    </p>
  );
}
