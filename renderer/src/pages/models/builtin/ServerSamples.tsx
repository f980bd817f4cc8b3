import type { LocalModel } from '@shared/contract/local-models';
import type { LocalServerStatus } from '@shared/contract/local-server';
import { isTextModel } from '@shared/chat-model';
import { CopyButton, copyToClipboard } from './CopyButton';

const KEY_ENV = 'HUBDESK_LOCAL_SERVER_KEY';
/** Past this many, the card points to GET /v1/models rather than listing every id. */
const MAX_IDS = 8;

const kind = (m: LocalModel) => (m.reranker ? 'rerank' : m.embedding ? 'embeddings' : 'chat');

/** A code sample under its title, with its Copy button on the title's line so the code has the card's width. */
function Sample({ title, label, code, testId }: { title: string; label: string; code: string; testId: string }) {
  return (
    <div className="server-sample" data-testid={testId}>
      <div className="server-sample-head">
        <span className="help">{title}</span>
        <CopyButton label={label} copy={() => copyToClipboard(code)} />
      </div>
      <pre>
        <code>{code}</code>
      </pre>
    </div>
  );
}

/**
 * How a client talks to the server: the line that puts the key in the environment variable every sample reads (the
 * samples never hold the key), curl for the model list and a chat, and the model ids a client sends.
 */
export function ServerSamples({ status, models: all }: { status: LocalServerStatus; models?: LocalModel[] }) {
  const models = (all ?? []).filter((m) => !m.problem);
  const chat = models.find(isTextModel);
  const base = status.url ?? `http://127.0.0.1:${status.port}/v1`;
  const auth = `-H "Authorization: Bearer $${KEY_ENV}"`;
  const chatBody = JSON.stringify({
    model: chat?.id ?? 'MODEL_ID',
    messages: [{ role: 'user', content: 'Say hello' }],
  });
  return (
    <div className="server-samples" data-testid="server-samples">
      <span className="field-label">Try it</span>
      <p className="help">
        {status.keySource === 'env'
          ? `HubDesk reads the key from ${KEY_ENV}; set the same variable where the client runs. Every sample reads it from there.`
          : `Copy key, then set it where the client runs, in place of paste-the-key-here. Every sample reads it from ${KEY_ENV}.`}
      </p>
      <Sample
        title="Set the key (macOS, Linux)"
        label="the line that sets the key"
        testId="sample-env"
        code={`export ${KEY_ENV}='paste-the-key-here'`}
      />
      <Sample
        title="Set the key (Windows PowerShell)"
        label="the PowerShell line that sets the key"
        testId="sample-env-ps"
        code={`$env:${KEY_ENV} = 'paste-the-key-here'`}
      />
      <Sample
        title="The models it serves"
        label="the models request"
        testId="sample-models"
        code={`curl ${base}/models ${auth}`}
      />
      <Sample
        title={`A chat${chat ? ` with ${chat.name}` : ''}`}
        label="the chat request"
        testId="sample-chat"
        code={`curl ${base}/chat/completions ${auth} \\\n  -H "Content-Type: application/json" \\\n  -d '${chatBody}'`}
      />
      <span className="field-label" id="server-ids-label">
        Model ids
      </span>
      {models.length === 0 ? (
        <p className="help">No model on disk yet: a client names a model by the id listed here once there is one.</p>
      ) : (
        <>
          <p className="help">
            A client sends one of these as <code>model</code>:
          </p>
          <ul className="server-ids" aria-labelledby="server-ids-label" data-testid="server-ids">
            {models.slice(0, MAX_IDS).map((m) => (
              <li key={m.id}>
                <code className="server-id">{m.id}</code>
                <span className="badge">{kind(m)}</span>
                <CopyButton label={`the id of ${m.name}`} copy={() => copyToClipboard(m.id)} />
              </li>
            ))}
          </ul>
          {models.length > MAX_IDS && (
            <p className="help">
              And {models.length - MAX_IDS} more: <code>GET /v1/models</code> lists them all.
            </p>
          )}
        </>
      )}
    </div>
  );
}
