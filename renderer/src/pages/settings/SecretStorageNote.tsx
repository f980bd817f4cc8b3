import { useState } from 'react';
import type { SettingsView } from '@shared/contract/settings';
import type { AppError } from '@shared/errors';
import { useSettings } from '../../store/settings';

/** Says plainly how secrets set here are kept; without a keyring, keeping them on disk is the user's choice. */
export function SecretStorageNote({ view }: { view: SettingsView }) {
  const [error, setError] = useState<string>();
  const { kind, keepWithoutKeyring } = view.secretStorage;
  if (kind === 'keychain') return <p className="help">Secrets you set here are encrypted with the OS keychain.</p>;
  if (kind === 'none') return null;
  const toggle = async (keep: boolean) => {
    setError(undefined);
    try {
      await useSettings.getState().keepSecretsWithoutKeyring(keep);
    } catch (e) {
      setError((e as AppError).message);
    }
  };
  return (
    <div className="field" data-testid="secret-storage">
      <p className="field-error" role="note">
        No keyring (GNOME Keyring, KWallet) was found: secrets written to disk would only be obfuscated, not encrypted,
        and anyone who can read your files could read them.
      </p>
      <label className="check">
        <input type="checkbox" checked={keepWithoutKeyring} onChange={(e) => void toggle(e.target.checked)} /> Keep
        secrets on disk anyway (otherwise they last until HubDesk quits)
      </label>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
