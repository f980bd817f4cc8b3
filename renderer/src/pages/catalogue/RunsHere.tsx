import { useMemo, type ReactNode } from 'react';
import type { HardwareView } from '@shared/contract/hardware';
import { formatBytes } from '@shared/format-bytes';
import { gb, verdictLabels, type FitResult } from '@shared/fit';
import { useBestFit, useHardware, type BestFit } from '../../hooks/fit';
import { useHubModelFacts, useTrendingGguf, useTrendingMlx, type HubLive } from '../../hooks/hub';
import { mlxFit, mlxGroup } from '../../lib/runs-here';
import { catalogueHref } from '../../store/route';
import './fit.css';

/** A few rows: each asks the Hub for the repo's files, so the list stays short. */
const SHOWN = 5;

type RowFit = BestFit | { state: 'ok'; label: string; size: number; fit?: FitResult };

/** The verdict part of a row; quiet when something is unknown. */
function RowVerdict({ best }: { best: RowFit }) {
  if (best.state === 'loading') return <span className="muted">checking the files…</span>;
  if (best.state === 'error') return <span className="muted">file sizes unavailable</span>;
  if (best.state === 'unknown') return <span className="muted">file sizes unknown</span>;
  return (
    <>
      <span className="mono">{best.label}</span>
      <span className="muted"> · {formatBytes(best.size)}</span>
      {best.fit ? (
        <>
          {' '}
          <span
            className={`fit-badge fit-${best.fit.verdict}`}
            data-verdict={best.fit.verdict}
            title={`Needs about ${gb(best.fit.needBytes)}: the weights, the KV cache for the default context (estimated from the parameter count) and the runtime. The model page reads the file's header for a closer figure.`}
          >
            {verdictLabels[best.fit.verdict]}
          </span>
        </>
      ) : (
        <span className="muted"> · machine unknown</span>
      )}
    </>
  );
}

function Row({ id, best }: { id: string; best: RowFit }) {
  return (
    <li className="start-fit-row" data-id={id} data-state={best.state}>
      <a className="mono start-fit-id" href={catalogueHref('model', id)}>
        {id}
      </a>
      <span className="start-fit-verdict small">
        <RowVerdict best={best} />
      </span>
    </li>
  );
}

/** A GGUF repo and the quant HubDesk would pick for this machine, with its verdict. */
function GgufRow({ id, hardware }: { id: string; hardware?: HardwareView }) {
  return <Row id={id} best={useBestFit(id, hardware)} />;
}

/** An MLX repo: its safetensors weights against unified memory. */
function MlxRow({ id, hardware }: { id: string; hardware: HardwareView }) {
  const { live } = useHubModelFacts(id);
  const best = useMemo((): RowFit => {
    if (live.state === 'loading') return { state: 'loading' };
    if (live.state !== 'ok') return { state: 'error' };
    return mlxFit(live.model, hardware.effective);
  }, [live, hardware]);
  return <Row id={id} best={best} />;
}

/** One group's list, or a quiet line with Try again when the Hub does not answer (the page is still worth using). */
function Group({
  live,
  reload,
  label,
  testid,
  row,
}: {
  live: HubLive<{ results: { id: string }[] }>;
  reload(): void;
  label: string;
  testid: string;
  row(id: string): ReactNode;
}) {
  if (live.state === 'loading')
    return (
      <p className="muted small" role="status">
        Asking the Hub…
      </p>
    );
  if (live.state === 'off') return <p className="muted small">Hub access is off.</p>;
  if (live.state === 'error')
    return (
      <p className="muted small" data-testid={`${testid}-error`}>
        The Hub did not answer ({live.error.message.replace(/\.$/, '')}).{' '}
        <button type="button" className="btn btn-ghost" onClick={reload}>
          Try again
        </button>
      </p>
    );
  if (live.results.length === 0)
    return <p className="muted small">The Hub lists no trending {label} models right now.</p>;
  return (
    <ul className="start-fit-list" data-testid={`${testid}-list`} aria-label={`${label} models`}>
      {live.results.map((m) => row(m.id))}
    </ul>
  );
}

/** Trending MLX repos, asked only on Apple Silicon. */
function MlxGroup({ hardware }: { hardware: HardwareView }) {
  const { live, reload } = useTrendingMlx(SHOWN);
  return (
    <>
      <h3 className="start-group">MLX</h3>
      <Group
        live={live}
        reload={reload}
        label="MLX"
        testid="runs-here-mlx"
        row={(id) => <MlxRow key={id} id={id} hardware={hardware} />}
      />
    </>
  );
}

/**
 * "Runs on this machine": the Hub's trending GGUF repos, each with its best verdict; on Apple Silicon the trending
 * MLX repos too, elsewhere one quiet line on where MLX runs (lib/runs-here.ts).
 */
export function RunsHere() {
  const { live, reload } = useTrendingGguf(SHOWN);
  // Asked once the Hub answered: the list (and where MLX runs) is worth judging only then.
  const hardware = useHardware(live.state === 'ok');
  const mlx = mlxGroup(hardware?.effective);
  return (
    <section
      className="card cat-section start-section"
      data-testid="runs-here"
      aria-labelledby="runs-here-title"
      aria-busy={live.state === 'loading'}
    >
      <h2 id="runs-here-title">Runs on this machine</h2>
      <p className="small muted start-note">
        Trending {mlx === 'list' ? 'GGUF and MLX' : 'GGUF'} models on the Hub, with what suits this machine.
      </p>
      {mlx === 'list' && <h3 className="start-group">GGUF</h3>}
      <Group
        live={live}
        reload={reload}
        label="GGUF"
        testid="runs-here"
        row={(id) => <GgufRow key={id} id={id} hardware={hardware} />}
      />
      {mlx === 'list' && hardware && <MlxGroup hardware={hardware} />}
      {mlx === 'note' && (
        <p className="small muted start-mlx-note" data-testid="runs-here-mlx-note">
          MLX models run on Apple Silicon.
        </p>
      )}
    </section>
  );
}
