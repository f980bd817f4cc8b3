import { useEffect, useRef, useState } from 'react';
import type { DoctorReport, Endpoint, EndpointSave } from '@shared/contract/endpoints';
import type { AppErrorShape } from '@shared/errors';
import { ErrorState, Loading } from '../../components/States';
import { endpointPresetInfo } from '../../lib/endpoint-presets';
import { useEndpoints } from '../../store/endpoints';
import { DoctorReportView } from './DoctorReport';
import { EndpointForm } from './EndpointForm';
import './endpoints.css';

type Busy = 'save' | 'test' | 'remove' | undefined;

function EndpointRow({
  endpoint: e,
  report,
  onReport,
}: {
  endpoint: Endpoint;
  report?: DoctorReport;
  onReport(r: DoctorReport): void;
}) {
  const { save, remove, test } = useEndpoints.getState();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<Busy>();
  const [error, setError] = useState<string>();
  const editRef = useRef<HTMLButtonElement>(null);
  const env = e.source === 'env';

  const run = async (what: Busy, fn: () => Promise<void>) => {
    setBusy(what);
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      setError((err as AppErrorShape).message);
    } finally {
      setBusy(undefined);
    }
  };
  const saveEdit = (input: EndpointSave) =>
    run('save', async () => {
      onReport((await save(input)).report);
      setEditing(false);
      editRef.current?.focus();
    });
  const removeKey = () =>
    run('save', async () =>
      onReport((await save({ id: e.id, name: e.name, preset: e.preset, baseUrl: e.baseUrl, apiKey: null })).report),
    );

  return (
    <li className="endpoint" data-testid={`endpoint-${e.id}`} aria-label={e.name}>
      <div className="endpoint-head">
        <h3>{e.name}</h3>
        <span className="badge">{endpointPresetInfo[e.preset].label}</span>
        {env && <span className="badge badge-warn">from HUBDESK_ENDPOINTS</span>}
      </div>
      <p className="endpoint-url">
        <code>{e.baseUrl}</code>{' '}
        {e.hasKey ? (
          <span className="endpoint-key">
            <span className="badge badge-ok">key set</span> goes to <code>{e.keyOrigin}</code> only
          </span>
        ) : (
          <span className="badge">no key</span>
        )}
      </p>
      {env && <p className="help">Set in the environment when HubDesk started: change it there.</p>}
      {editing ? (
        <EndpointForm
          endpoint={e}
          busy={busy === 'save'}
          error={error}
          onSave={(input) => void saveEdit(input)}
          onCancel={() => {
            setEditing(false);
            setError(undefined);
          }}
        />
      ) : (
        <div className="endpoint-actions">
          <button
            className="btn"
            disabled={!!busy}
            onClick={() => void run('test', async () => onReport(await test(e.id)))}
          >
            {busy === 'test' ? 'Testing…' : 'Test'}
          </button>
          {!env && (
            <>
              <button className="btn btn-ghost" ref={editRef} disabled={!!busy} onClick={() => setEditing(true)}>
                Edit
              </button>
              {e.hasKey && (
                <button className="btn btn-ghost" disabled={!!busy} onClick={() => void removeKey()}>
                  Remove key
                </button>
              )}
              {confirming ? (
                <span className="endpoint-confirm" role="group" aria-label={`Remove ${e.name}?`}>
                  <span>Remove “{e.name}”? Its key goes too; conversations on it keep their messages.</span>
                  <button
                    className="btn btn-danger"
                    autoFocus
                    disabled={!!busy}
                    onClick={() => void run('remove', () => remove(e.id))}
                  >
                    {busy === 'remove' ? 'Removing…' : 'Remove'}
                  </button>
                  <button className="btn btn-ghost" onClick={() => setConfirming(false)}>
                    Keep it
                  </button>
                </span>
              ) : (
                <button className="btn btn-ghost btn-danger" disabled={!!busy} onClick={() => setConfirming(true)}>
                  Remove…
                </button>
              )}
            </>
          )}
        </div>
      )}
      {error && !editing && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {report && !editing && <DoctorReportView report={report} />}
    </li>
  );
}

/** Settings → Endpoints: the OpenAI-compatible servers to chat with (llama.cpp, LM Studio, vLLM…), each checked. */
export function EndpointsSettings() {
  const list = useEndpoints((s) => s.list);
  const loadError = useEndpoints((s) => s.error);
  const { load, save } = useEndpoints.getState();
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [addError, setAddError] = useState<string>();
  const [reports, setReports] = useState<Record<string, DoctorReport>>({});
  const addRef = useRef<HTMLButtonElement>(null);
  useEffect(() => void load(), [load]);

  const report = (id: string) => (r: DoctorReport) => setReports((all) => ({ ...all, [id]: r }));
  const add = async (input: EndpointSave) => {
    setBusy(true);
    setAddError(undefined);
    try {
      const r = await save(input);
      report(r.endpoint.id)(r.report);
      setAdding(false);
    } catch (e) {
      setAddError((e as AppErrorShape).message);
    } finally {
      setBusy(false);
    }
  };
  // Back on the button that opened the form once it closes, for the keyboard.
  const wasAdding = useRef(false);
  useEffect(() => {
    if (wasAdding.current && !adding) addRef.current?.focus();
    wasAdding.current = adding;
  }, [adding]);

  return (
    <div className="card" data-testid="endpoints-settings">
      <h2>Endpoints</h2>
      <p className="help">
        OpenAI-compatible servers to chat with beside Ollama and the Hugging Face router: llama.cpp&apos;s llama-server,
        LM Studio, vLLM, LocalAI, Jan, or a bigger machine on your network. Each is checked when saved.
      </p>
      {!list ? (
        loadError ? (
          <ErrorState error={loadError} title="Endpoints could not be read" onRetry={() => void load()} />
        ) : (
          <Loading label="Reading endpoints…" />
        )
      ) : list.length === 0 ? (
        !adding && (
          <p className="endpoints-empty" data-testid="endpoints-empty">
            No endpoints yet: add llama.cpp, LM Studio, vLLM or any OpenAI-compatible server.
          </p>
        )
      ) : (
        <ul className="endpoints">
          {list.map((e) => (
            <EndpointRow key={e.id} endpoint={e} report={reports[e.id]} onReport={report(e.id)} />
          ))}
        </ul>
      )}
      {list &&
        (adding ? (
          <EndpointForm
            busy={busy}
            error={addError}
            onSave={(input) => void add(input)}
            onCancel={() => {
              setAdding(false);
              setAddError(undefined);
            }}
          />
        ) : (
          <button className="btn" ref={addRef} onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        ))}
    </div>
  );
}
