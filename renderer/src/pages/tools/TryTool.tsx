import { useState } from 'react';
import type { McpTool, McpToolResult } from '@shared/contract/mcp';
import { useToolCall } from '../../hooks/mcp';

/** A starting point for the arguments: each declared property with an empty value of its type. */
function argumentSkeleton(schema: McpTool['inputSchema']): string {
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown; default?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) {
    if (p.default !== undefined) out[k] = p.default;
    else if (p.type === 'number' || p.type === 'integer') out[k] = 0;
    else if (p.type === 'boolean') out[k] = false;
    else if (p.type === 'array') out[k] = [];
    else if (p.type === 'object') out[k] = {};
    else out[k] = '';
  }
  return JSON.stringify(out, null, 2);
}

/** Parses the arguments a person typed: an object, or a message saying what is wrong. */
function parseArguments(text: string): { args?: Record<string, unknown>; error?: string } {
  let v: unknown;
  try {
    v = text.trim() ? JSON.parse(text) : {};
  } catch (e) {
    return { error: `The arguments are not valid JSON: ${(e as Error).message}` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { error: 'The arguments must be a JSON object, e.g. {"text": "hi"}.' };
  return { args: v as Record<string, unknown> };
}

function Result({ result }: { result: McpToolResult }) {
  return (
    <div className={`mcp-result${result.isError ? ' mcp-result-error' : ''}`} data-testid="mcp-result" role="status">
      <p className="muted small">
        {result.isError ? 'The tool reported an error' : 'Result'} · {result.durationMs} ms
        {result.truncated && ' · cut to a bounded size'}
      </p>
      {result.content.map((c, i) =>
        c.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType) ? (
          <img key={i} src={`data:${c.mimeType};base64,${c.data}`} alt={`image ${i + 1} from ${result.tool}`} />
        ) : (
          <pre key={i} className="mcp-pre">
            {c.type === 'image' || c.type === 'audio'
              ? `[${c.type}, ${c.mimeType}]`
              : c.type === 'resource'
                ? `${c.uri}\n${c.text}`
                : c.text}
          </pre>
        ),
      )}
    </div>
  );
}

/** "Try it": run one tool with arguments typed as JSON; cancellable. */
export function TryTool({ server, tool }: { server: string; tool: McpTool }) {
  const id = `try-${server}-${tool.name}`.replace(/[^\w-]/g, '_');
  const [text, setText] = useState(() => argumentSkeleton(tool.inputSchema));
  const [result, setResult] = useState<McpToolResult>();
  const [bad, setBad] = useState<string>();
  const call = useToolCall(server, tool.name);
  const running = call.busy;
  const failed = call.error && (call.error.code === 'aborted' ? 'Cancelled.' : call.error.message);
  const error = bad ?? failed;

  const run = async () => {
    const { args, error: parseError } = parseArguments(text);
    setResult(undefined);
    setBad(parseError);
    call.clear();
    if (!args) return;
    const answer = await call.run(args);
    if (answer) setResult(answer);
  };

  return (
    <div className="mcp-try">
      <label htmlFor={id}>Arguments (JSON)</label>
      <textarea
        id={id}
        className="mono"
        rows={Math.min(8, text.split('\n').length + 1)}
        value={text}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !running) void run();
          if (e.key === 'Escape' && running) call.cancel();
        }}
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="help">
        Ctrl+Enter runs, Escape cancels.
      </p>
      <div className="field-row">
        <button className="btn btn-primary" disabled={running} onClick={() => void run()}>
          {running ? 'Running…' : `Run ${tool.name}`}
        </button>
        {running && (
          <button className="btn" onClick={() => call.cancel()}>
            Cancel
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {result && <Result result={result} />}
    </div>
  );
}
