import { useEffect, useState } from 'react';
import { useAnyEngine } from '../../features/engines/registry';
import { useContinueInChat } from '../../hooks/compare';
import { useEndpointList } from '../../hooks/endpoints';
import { Empty, Loading } from '../../components/States';
import { toSet, useCompare, type RunView } from '../../store/compare';
import { useCompareDraft } from '../../store/compare-draft';
import { hrefFor } from '../../store/route';
import { BlindVote } from './BlindVote';
import { PaneEditor } from './PaneEditor';
import { PaneView } from './PaneView';
import { PlanLine } from './PlanLine';
import { PromptBox } from './PromptBox';
import { RecentComparisons } from './RecentComparisons';
import { RunActions } from './RunActions';
import { SavedSets } from './SavedSets';
import { Scoreboard } from './Scoreboard';
import { SharedSettings } from './SharedSettings';
import '../chat/chat.css';
import './compare.css';

function ContinueButton({ run, slot }: { run: RunView; slot: number }) {
  const cont = useContinueInChat();
  const s = run.slots[slot];
  const answer = s.answers[s.run];
  if (!run.id || !answer || (run.blind && !run.vote)) return null;
  return (
    <div className="cmp-pane-actions">
      <button className="btn btn-xs" disabled={cont.busy} onClick={() => void cont.run(run.id!, slot, s.run)}>
        Continue in chat<span className="sr-only"> with {s.label}</span>
      </button>
      {cont.error && (
        <span className="field-error" role="alert">
          {cont.error.message}
        </span>
      )}
    </div>
  );
}

/** Compare: one prompt to 2–4 panes side by side, each answer with its speed; blind votes and a scoreboard. */
export function ComparePage() {
  const set = useCompare((s) => s.set);
  const note = useCompare((s) => s.note);
  const run = useCompare((s) => s.run);
  const running = useCompare((s) => !!s.running);
  const { setPane, addPane, removePane, load } = useCompare.getState();
  const endpoints = useEndpointList();
  const any = useAnyEngine();
  // Lists asked again after a run, a save or a vote.
  const [version, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);

  // A set another page handed over ("Compare quants"), taken once as the page opens.
  useEffect(() => {
    const d = useCompareDraft.getState().take();
    if (d) load(d.draft, d.note);
  }, [load]);
  const finished = !!run && !running;
  useEffect(() => {
    if (finished) bump();
  }, [finished]);

  if (any === undefined) return <Loading label="Looking for engines…" />;
  if (any === false)
    return (
      <section className="page">
        <header className="page-header">
          <h1>Compare</h1>
        </header>
        <Empty title="No engine to compare with yet">
          <p>Compare sends one prompt to several models. To have models to pick:</p>
          <ul className="cmp-empty-list">
            <li>
              Start Ollama (“ollama serve”) and pull a model, or{' '}
              <a href={hrefFor('models')}>download one in Local models</a> for the built-in engine;
            </li>
            <li>
              add an OpenAI-compatible server under <a href={hrefFor('settings')}>Settings → Endpoints</a>;
            </li>
            <li>
              or set a Hugging Face token in <a href={hrefFor('settings')}>Settings → Secrets</a> for hosted models.
            </li>
          </ul>
        </Empty>
      </section>
    );

  const missing = set.panes.findIndex((p) => !p.model.trim());
  const why = missing >= 0 ? `Choose a model for pane ${missing + 1}.` : undefined;
  const blindPending = !!run?.blind && !run.vote && finished && !!run.id;
  return (
    <section className="page cmp-page" data-testid="compare-page">
      <header className="page-header">
        <h1>Compare</h1>
        <span className="muted">One prompt, several models or quants, each answer with its speed on this machine</span>
      </header>
      {note && <p className="cmp-note">{note}</p>}
      <div className="cmp-editors" data-count={set.panes.length}>
        {set.panes.map((p, i) => (
          <PaneEditor
            key={i}
            index={i}
            pane={p}
            endpoints={endpoints ?? []}
            canRemove={set.panes.length > 2}
            disabled={running}
            onChange={(patch) => setPane(i, patch)}
            onRemove={() => removePane(i)}
          />
        ))}
        {set.panes.length < 4 && (
          <button className="btn cmp-add" disabled={running} onClick={addPane}>
            + Add a pane
          </button>
        )}
      </div>
      <SharedSettings disabled={running} />
      {/* Blind: until the vote on its run (the plan said in full with the vote). */}
      <PlanLine set={toSet(set)} ready={missing < 0} blind={set.blind && !run?.vote} />
      <PromptBox ready={missing < 0} why={why} />
      {run && (
        <section className="cmp-run" aria-label="Answers" data-testid="compare-run">
          <p className="cmp-run-prompt">
            <span className="muted">Prompt:</span> {run.prompt}
          </p>
          {run.slots.length === 0 ? (
            <Loading label="Starting the comparison…" />
          ) : (
            <div className="cmp-panes" data-count={run.slots.length}>
              {run.slots.map((s, i) => (
                <PaneView
                  key={`${run.id} ${i}`}
                  run={run}
                  slot={s}
                  index={i}
                  actions={finished && <ContinueButton run={run} slot={i} />}
                />
              ))}
            </div>
          )}
          {blindPending && <BlindVote run={run} onVoted={bump} />}
          {run.vote && (
            <p className="cmp-voted" data-testid="compare-voted">
              Your vote:{' '}
              {run.vote.winner === null ? 'a tie' : `${run.slots[run.vote.winner]?.label ?? 'one answer'} is better`}.
              {run.blind && run.plan && <span className="muted"> {run.plan.reason}</span>}
            </p>
          )}
          {finished && <RunActions run={run} onSaved={bump} />}
        </section>
      )}
      <div className="cmp-sides">
        <Scoreboard version={version} />
        <SavedSets version={version} onChange={bump} />
        <RecentComparisons version={version} />
      </div>
    </section>
  );
}
