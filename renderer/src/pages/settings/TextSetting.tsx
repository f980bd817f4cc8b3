import { useEffect, useRef, useState } from 'react';
import type { SettingKey } from '@shared/contract/settings';
import type { AppError } from '@shared/errors';
import { afterPaint } from '../../lib/after-paint';
import { useSettings } from '../../store/settings';
import { useStatus } from '../../store/status';
import { HubEndpointReload } from './HubEndpointReload';

export interface TextField {
  key: Exclude<SettingKey, 'theme' | 'hubAccess' | 'hardwareOverride'>;
  label: string;
  help: string;
  env?: string;
  placeholder?: string;
}

/** One text setting: saved with Enter or Save, back to its environment/default value with Reset; main's refusal shown. */
export function TextSetting({ field, onSaved }: { field: TextField; onSaved?: () => void }) {
  const { view, update } = useSettings();
  const value = view?.values[field.key] ?? '';
  const source = view?.sources[field.key];
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setDraft(value), [value]);
  const dirty = draft !== value;

  const save = async (v: string | null) => {
    setError(undefined);
    try {
      await update({ [field.key]: v });
      if (field.key === 'ollamaHost') void useStatus.getState().refresh();
      onSaved?.();
      // Save is disabled once saved (and Reset may be gone): the keyboard's focus goes back to the field.
      afterPaint(() => document.activeElement === document.body && input.current?.focus());
    } catch (e) {
      setError((e as AppError).message);
    }
  };

  return (
    <div className="field">
      <label htmlFor={`setting-${field.key}`}>{field.label}</label>
      <div className="field-row">
        <input
          id={`setting-${field.key}`}
          ref={input}
          value={draft}
          placeholder={field.placeholder}
          onChange={(e) => {
            setDraft(e.target.value);
            // Back to the value kept: a refusal of another value no longer applies.
            if (e.target.value === value) setError(undefined);
          }}
          onKeyDown={(e) => e.key === 'Enter' && dirty && void save(draft)}
          aria-invalid={!!error}
          aria-describedby={error ? `setting-${field.key}-error` : undefined}
          spellCheck={false}
        />
        <button className="btn" disabled={!dirty} onClick={() => void save(draft)}>
          Save
        </button>
        {source === 'user' && (
          <button
            className="btn btn-ghost"
            onClick={() => void save(null)}
            title="Back to the environment or default value"
          >
            Reset
          </button>
        )}
      </div>
      <p className="help">
        {field.help}{' '}
        <span className="badge">
          {source === 'env' ? `from ${field.env}` : source === 'user' ? 'set by you' : 'default'}
        </span>
      </p>
      {error && (
        <p className="field-error" id={`setting-${field.key}-error`} role="alert">
          {error}
        </p>
      )}
      {field.key === 'hubEndpoint' && <HubEndpointReload />}
    </div>
  );
}
