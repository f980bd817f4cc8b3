import { useEffect, useState } from 'react';
import type { AppError } from '@shared/errors';
import { gb } from '@shared/fit';
import { useHardware } from '../../hooks/app';
import { useSettings } from '../../store/settings';
import './hardware.css';

/** What main detected, and the user's own figures (like huggingface.co's hardware picker) for the fit verdicts. */
export function HardwareSettings() {
  const { view, update } = useSettings();
  const override = view?.values.hardwareOverride;
  const { hardware: hw, error: loadError, detectAgain } = useHardware(override);
  const [vram, setVram] = useState('');
  const [ram, setRam] = useState('');
  const [unified, setUnified] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    setVram(override ? String(override.vramGiB) : '');
    setRam(override ? String(override.ramGiB) : '');
    setUnified(!!override?.unified);
  }, [override]);

  const save = async () => {
    setError(undefined);
    const v = Number(vram || '0');
    const r = Number(ram);
    if (!ram.trim() || !Number.isFinite(r) || r < 0.5) return setError('RAM: a size in GiB, at least 0.5.');
    if (!Number.isFinite(v) || v < 0) return setError('GPU memory: a size in GiB (0 for no GPU).');
    try {
      await update({ hardwareOverride: { vramGiB: v, ramGiB: r, ...(unified ? { unified: true } : {}) } });
    } catch (e) {
      setError((e as AppError).message);
    }
  };

  const d = hw?.detected;
  return (
    <div className="card" data-testid="hardware-settings">
      <h2>Hardware</h2>
      <p className="help">
        GGUF quantizations show whether they fit this machine. Detected:{' '}
        <span data-testid="hardware-detected">
          {loadError
            ? `unknown (${loadError.message})`
            : !d
              ? 'checking…'
              : `${gb(d.ramTotal)} RAM (${gb(d.ramFree)} free), ${
                  d.gpus.length ? d.gpus.map((g) => `${g.name} ${gb(g.vramTotal)}`).join(', ') : 'no GPU found'
                }`}
        </span>{' '}
        <button className="btn btn-ghost btn-sm" type="button" onClick={detectAgain}>
          Detect again
        </button>
      </p>
      {hw && hw.probes.length > 0 && (
        <p className="help small">{hw.probes.map((p) => `${p.tool}: ${p.result}`).join(' · ')}</p>
      )}
      <form
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="hw-row">
          <label className="hw-field">
            <span>GPU memory (GiB)</span>
            <input inputMode="decimal" value={vram} onChange={(e) => setVram(e.target.value)} placeholder="0" />
          </label>
          <label className="hw-field">
            <span>RAM (GiB)</span>
            <input inputMode="decimal" value={ram} onChange={(e) => setRam(e.target.value)} placeholder="16" />
          </label>
          <label className="hw-check">
            <input type="checkbox" checked={unified} onChange={(e) => setUnified(e.target.checked)} /> Unified memory
            (Apple Silicon)
          </label>
          <button className="btn" type="submit">
            Use these figures
          </button>
          {override && (
            <button className="btn btn-ghost" type="button" onClick={() => void update({ hardwareOverride: null })}>
              Use detected
            </button>
          )}
        </div>
        <p className="help">
          <span className="badge">{override ? 'set by you' : 'detected'}</span> Set your own figures to see how models
          fit another machine, in GiB as vendors print them (a “24 GB” card is 24 GiB); the verdicts say sizes in GB
          like the Hub (24 GiB is 25.8 GB).
        </p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </div>
  );
}
