import { useMemo, useState, type KeyboardEvent } from 'react';
import type { McpTool, McpToolResult } from '@shared/contract/mcp';
import { useToolCall } from '../../hooks/mcp';
import {
  defaultValues,
  fieldKey,
  fromArguments,
  missingRequired,
  planForm,
  toArguments,
  type Field,
  type FormValues,
} from '../../lib/schema-form';
import { inputId, SchemaFields } from './SchemaFields';
import { ToolResult } from './ToolResult';

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

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** Fields by their key, to name the wrong ones in the summary. */
function flatten(fields: Field[]): Field[] {
  return fields.flatMap((f) => (f.kind === 'object' ? [f, ...flatten(f.fields ?? [])] : [f]));
}

/**
 * "Try it": run one tool with arguments from a form built from its input schema, or typed as JSON ("Raw JSON",
 * and always when the schema is beyond a form); switching carries the arguments across. Cancellable.
 */
export function TryTool({ server, tool }: { server: string; tool: McpTool }) {
  const id = `try-${server}-${tool.name}`.replace(/[^\w-]/g, '_');
  const plan = useMemo(() => planForm(tool.inputSchema), [tool.inputSchema]);
  const fields = 'fields' in plan ? plan.fields : undefined;
  const [values, setValues] = useState<FormValues>(() => defaultValues(fields ?? []));
  const [extra, setExtra] = useState<Record<string, unknown>>({});
  const [raw, setRaw] = useState(!fields);
  const [text, setText] = useState(() => json(toArguments(fields ?? [], values).args));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<McpToolResult>();
  const [bad, setBad] = useState<string>();
  const call = useToolCall(server, tool.name);
  const running = call.busy;
  const failed = call.error && (call.error.code === 'aborted' ? 'Cancelled.' : call.error.message);
  const error = bad ?? failed;

  /** The arguments to send, or undefined after saying what is wrong. */
  const checked = (): Record<string, unknown> | undefined => {
    if (raw || !fields) {
      const { args, error: parseError } = parseArguments(text);
      if (!args) return void setBad(parseError);
      const missing = missingRequired(fields ?? [], args);
      const names = missing.map((m) => `"${m}"`).join(', ');
      if (missing.length) return void setBad(`Not run: ${names} ${missing.length === 1 ? 'is' : 'are'} required.`);
      return args;
    }
    const { args, errors } = toArguments(fields, values, extra);
    setFieldErrors(errors);
    const wrong = flatten(fields).filter((f) => errors[fieldKey(f)]);
    if (wrong.length === 0) return args;
    setBad(`Not run: check ${wrong.map((f) => f.label).join(', ')}.`);
    document.getElementById(inputId(id, wrong[0]))?.focus();
    return undefined;
  };

  const run = async () => {
    if (running) return;
    setResult(undefined);
    setBad(undefined);
    call.clear();
    const args = checked();
    if (!args) return;
    const answer = await call.run(args);
    if (answer) setResult(answer);
  };

  const toggle = () => {
    setBad(undefined);
    if (!fields) return;
    if (!raw) {
      setText(json(toArguments(fields, values, extra).args));
      return setRaw(true);
    }
    const { args, error: parseError } = parseArguments(text);
    if (!args) return setBad(`Fix the JSON to go back to the form. ${parseError}`);
    const back = fromArguments(fields, args);
    setValues(back.values);
    setExtra(back.extra);
    setFieldErrors({});
    setRaw(false);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void run();
    }
    if (e.key === 'Escape' && running) call.cancel();
  };
  const extraKeys = Object.keys(extra);

  return (
    <form
      className="mcp-try"
      noValidate
      aria-label={`Try ${tool.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
      onKeyDown={onKeyDown}
    >
      {'raw' in plan && (
        <p className="help">The form cannot show this tool’s arguments: {plan.raw} Type them as JSON.</p>
      )}
      {raw || !fields ? (
        <>
          <label htmlFor={id}>Arguments (JSON)</label>
          <textarea
            id={id}
            className="mono"
            rows={Math.min(8, text.split('\n').length + 1)}
            value={text}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
          />
        </>
      ) : fields.length === 0 ? (
        <p className="muted small">This tool takes no arguments.</p>
      ) : (
        <SchemaFields idBase={id} fields={fields} values={values} errors={fieldErrors} onChange={(v) => setValues(v)} />
      )}
      {!raw && extraKeys.length > 0 && <p className="help">Also sent, from the raw JSON: {extraKeys.join(', ')}.</p>}
      <p className="help mcp-keys">Ctrl+Enter runs, Escape cancels.</p>
      <div className="field-row">
        <button type="submit" className="btn btn-primary" disabled={running}>
          {running ? 'Running…' : `Run ${tool.name}`}
        </button>
        {running && (
          <button type="button" className="btn" onClick={() => call.cancel()}>
            Cancel
          </button>
        )}
        <span className="mcp-spacer" />
        {fields && (
          <button type="button" className="btn btn-ghost" aria-pressed={raw} onClick={toggle}>
            Raw JSON
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {result && <ToolResult result={result} />}
    </form>
  );
}
