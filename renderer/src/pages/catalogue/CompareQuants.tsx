import { useEffect, useId, useRef, useState } from 'react';
import { verdictLabels } from '@shared/fit';
import type { AppErrorShape } from '@shared/errors';
import { useDialog } from '../../components/useDialog';
import { useQuantTargets } from '../../features/engines/registry';
import type { Presence } from '../../features/engines/types';
import type { FitPlan } from '../../hooks/fit';
import { useEngineStatus } from '../../hooks/local';
import { compareNote, confirmLabel, initialPicks, inSizeOrder, MAX_QUANTS, quantSet } from '../../lib/compare-quants';
import type { QuantEngine, QuantWords } from '../../lib/engines';
import { formatBytes } from '../../lib/format';
import { useCompareDraft } from '../../store/compare-draft';
import { useRoute } from '../../store/route';
import { useStatus } from '../../store/status';
import './compare-quants.css';

/** Why the built-in engine cannot run here (its binaries missing or refused), once main has said so. */
function useBuiltinProblem(): AppErrorShape | undefined {
  const engine = useEngineStatus();
  return engine.status?.error;
}

/**
 * "Compare quants" beside a GGUF repo's quant table: opens the dialog that picks 2 or 3 quants and an engine, fetches
 * what is missing once confirmed, and hands the set to the Compare page. Not shown for fewer than 2 quants.
 */
export function CompareQuants({ repo, plan }: { repo: string; plan: FitPlan }) {
  const [open, setOpen] = useState(false);
  const ollamaDown = useStatus((s) => s.ollama?.reachable === false);
  if (plan.rows.length < 2) return null;
  return (
    <>
      {ollamaDown ? <OllamaDownButton onOpen={() => setOpen(true)} /> : <OpenButton onOpen={() => setOpen(true)} />}
      {open && <QuantsDialog repo={repo} plan={plan} onClose={() => setOpen(false)} />}
    </>
  );
}

function OpenButton({ onOpen, reason }: { onOpen(): void; reason?: string }) {
  const why = useId();
  return (
    <p className="cat-actions cq-open">
      <button className="btn" onClick={onOpen} disabled={!!reason} aria-describedby={why} data-testid="compare-quants">
        Compare quants
      </button>
      <span className={reason ? 'small field-error' : 'small muted'} id={why} data-testid="compare-quants-why">
        {reason ?? 'Two or three of them on one prompt, side by side, with their speed here.'}
      </span>
    </p>
  );
}

/** With Ollama down the built-in engine must be usable, which only main knows. */
function OllamaDownButton({ onOpen }: { onOpen(): void }) {
  const problem = useBuiltinProblem();
  const reason = problem
    ? `Neither engine can run them: Ollama is not running, and the built-in engine cannot start (${problem.message}).`
    : undefined;
  return <OpenButton onOpen={onOpen} reason={reason} />;
}

function QuantsDialog({ repo, plan, onClose }: { repo: string; plan: FitPlan; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const title = useId();
  useDialog(ref, onClose, 'input[type="checkbox"]:checked');
  const rows = plan.rows;
  const [picked, setPicked] = useState(() =>
    initialPicks(rows.map((r) => ({ label: r.label, size: r.size, verdict: r.fit?.verdict }))),
  );
  // The transfers this dialog started, by engine: only their failures are its to show.
  const [ours, setOurs] = useState<Partial<Record<QuantEngine, string[]>>>({});
  const targets = useQuantTargets(repo, rows, ours);
  // The first engine that can run them (Ollama, unless it is not running).
  const [engine, setEngine] = useState(() => (targets.find((t) => !t.problem) ?? targets[targets.length - 1]).engine);
  const target = targets.find((t) => t.engine === engine)!;
  const { presence, known } = target;
  const [started, setStarted] = useState(false);
  const offer = useCompareDraft((s) => s.offer);
  const go = useRoute((s) => s.go);

  const chosen = inSizeOrder(rows, picked);
  const states = chosen.map((l) => presence.get(l) ?? ({ kind: 'missing' } as Presence));
  const missing = chosen.filter((_, i) => states[i].kind === 'missing');
  const busy = states.some((s) => s.kind === 'busy');
  const engineDown = !!target.problem;
  const models = states.flatMap((s) => (s.kind === 'here' ? [s.model] : []));

  const failed = states.some((s) => s.kind === 'missing' && (s.error || s.cancelled));
  const starting = targets.some((t) => t.starting);
  // Keys, not arrays: the effect runs when what is here changes, not on every render.
  const hereKey = models.length === chosen.length ? models.join('\n') : '';
  const chosenKey = chosen.join('\n');
  // Once confirmed: all here → the Compare page (once); a transfer failed or cancelled, none left → back to the choice.
  const handed = useRef(false);
  useEffect(() => {
    if (!started || handed.current) return;
    if (hereKey) {
      handed.current = true;
      offer(quantSet(engine, hereKey.split('\n')), compareNote(repo, chosenKey.split('\n')));
      go('compare');
    } else if (failed && !busy && !starting) setStarted(false);
  }, [started, hereKey, chosenKey, failed, busy, starting, engine, repo, offer, go]);

  const locked = started || busy;
  // The control under the keyboard's focus may go disabled or away (Confirm while fetching, Cancel after): the focus
  // moves to the one that now acts, so Enter still does something.
  useEffect(() => {
    const now = document.activeElement;
    if (now && now !== document.body && !(now as HTMLButtonElement).disabled) return;
    ref.current?.querySelector<HTMLElement>(busy ? '[data-testid="cq-cancel"]' : '[data-testid="cq-confirm"]')?.focus();
  }, [busy, locked]);

  const confirm = async () => {
    setStarted(true);
    const mine = (job: string) => setOurs((o) => ({ ...o, [engine]: [...(o[engine] ?? []), job] }));
    // Main refused one (its words show below): stop there, the user decides again.
    if (!(await target.fetch(missing, mine))) setStarted(false);
  };
  const cancelAll = () => {
    for (const s of states) if (s.kind === 'busy') target.cancel(s.job);
  };
  const toggle = (label: string, on: boolean) => setPicked((p) => (on ? [...p, label] : p.filter((l) => l !== label)));

  const label = confirmLabel(
    engine,
    missing.map((l) => ({ size: rows.find((r) => r.label === l)?.size })),
  );
  const blocker = chosen.length < 2 ? 'Pick 2 or 3 quants.' : undefined;
  return (
    <div className="cq-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className="cq-dialog card"
        role="dialog"
        aria-modal="true"
        aria-labelledby={title}
        data-testid="compare-quants-dialog"
      >
        <h2 id={title}>Compare quants</h2>
        <p className="small muted">
          One prompt to each quant, side by side, with the load time, time to first token and tokens per second of each
          on this machine.
        </p>
        <fieldset className="cq-field" disabled={locked}>
          <legend>Quants (2 or 3)</legend>
          <ul className="cq-list">
            {rows.map((r) => {
              const on = picked.includes(r.label);
              const p = presence.get(r.label);
              return (
                <li key={r.label} className="cq-row" data-testid="cq-row" data-quant={r.label} data-state={p?.kind}>
                  <label className="cq-pick">
                    <input
                      type="checkbox"
                      checked={on}
                      disabled={!on && picked.length >= MAX_QUANTS}
                      onChange={(e) => toggle(r.label, e.target.checked)}
                    />
                    <span className="mono">{r.label}</span>
                    {r.label === plan.defaultLabel && <span className="badge">default</span>}
                  </label>
                  <PresenceLine
                    label={r.label}
                    presence={p}
                    words={target.words}
                    size={r.size}
                    verdict={r.fit?.verdict}
                  />
                </li>
              );
            })}
          </ul>
        </fieldset>
        <fieldset className="cq-field" disabled={locked}>
          <legend>Run them on</legend>
          {targets.map((t) => (
            <label className="cq-engine" key={t.engine}>
              <input
                type="radio"
                name="cq-engine"
                checked={t.engine === engine}
                disabled={!!t.problem}
                onChange={() => setEngine(t.engine)}
              />
              {t.name} <span className="small muted">{t.note}</span>
            </label>
          ))}
        </fieldset>
        {engineDown && (
          <p className="field-error" role="alert" data-testid="cq-engine-down">
            {target.problem}
          </p>
        )}
        {targets.map(
          (t) =>
            t.refused && (
              <p className="field-error" role="alert" data-testid="cq-error" key={t.engine}>
                {t.refused}
              </p>
            ),
        )}
        {blocker && <p className="help">{blocker}</p>}
        <div className="cq-footer">
          {busy && <span className="small muted cq-note">Close keeps them running.</span>}
          <button className="btn" onClick={onClose}>
            Close
          </button>
          {busy && (
            <button className="btn" onClick={cancelAll} data-testid="cq-cancel">
              {target.words.cancel}
            </button>
          )}
          <button
            className="btn btn-primary"
            onClick={() => void confirm()}
            disabled={locked || !!blocker || engineDown || !known}
            data-testid="cq-confirm"
          >
            {locked ? `${target.words.busy}…` : known ? label : 'Checking what is here…'}
          </button>
        </div>
      </div>
    </div>
  );
}

function PresenceLine({
  label,
  presence: p,
  words,
  size,
  verdict,
}: {
  label: string;
  presence?: Presence;
  words: QuantWords;
  size?: number;
  verdict?: keyof typeof verdictLabels;
}) {
  if (p?.kind === 'here')
    return (
      <span className="badge badge-ok cq-state" data-testid="cq-here">
        {words.here}
      </span>
    );
  if (p?.kind === 'busy')
    return (
      <span className="cq-state cq-busy">
        <span
          className="cq-bar"
          role="progressbar"
          aria-label={`${words.busy} ${label}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={p.pct}
        >
          <span className="cq-bar-fill" style={{ width: `${p.pct}%` }} />
        </span>
        <span className="small muted" aria-live="polite" data-testid="cq-progress">
          {p.text} · {p.pct}%
        </span>
      </span>
    );
  return (
    <span className="cq-state small">
      <span className="muted">{size !== undefined ? formatBytes(size) : 'size unknown'}</span>
      {verdict && <span className={`fit-badge fit-${verdict}`}>{verdictLabels[verdict]}</span>}
      {p?.cancelled && <span className="muted">cancelled</span>}
      {p?.error && (
        <span className="field-error" role="alert" data-testid="cq-failed">
          {p.error}
        </span>
      )}
    </span>
  );
}
