import { useState } from 'react';
import { MAX_CONTEXT_LENGTH } from '@shared/contract/endpoints';
import { useAction } from '../../../hooks/query';

/** What most local servers start with when not told otherwise (llama-server's and LM Studio's usual default). */
const SUGGESTED = 4096;

/**
 * Asked once, inline under the model picker, when the endpoint does not say the context length it runs the chosen
 * model with: main keeps the answer for that endpoint and model, and lists it with the model from then on.
 */
export function EndpointContextField({
  endpointName,
  model,
  onSave,
}: {
  endpointName: string;
  model: string;
  onSave(contextLength: number): Promise<void>;
}) {
  const [text, setText] = useState(String(SUGGESTED));
  const [invalid, setInvalid] = useState<string>();
  const save = useAction(onSave);
  const id = 'endpoint-context-length';
  const submit = () => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 256 || n > MAX_CONTEXT_LENGTH)
      return setInvalid(`Type a whole number of tokens from 256 to ${MAX_CONTEXT_LENGTH.toLocaleString('en')}.`);
    setInvalid(undefined);
    void save.run(n);
  };
  const error = invalid ?? save.error?.message;
  return (
    <form
      className="endpoint-context"
      data-testid="endpoint-context"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id}>
        What context length does {endpointName} run {model} with?
      </label>
      <div className="endpoint-context-row">
        <input
          id={id}
          type="number"
          min={256}
          max={MAX_CONTEXT_LENGTH}
          step={1}
          value={text}
          aria-invalid={!!error}
          aria-describedby={`${id}-why`}
          onChange={(e) => setText(e.target.value)}
        />
        <span className="muted small">tokens</span>
        <button className="btn btn-xs" type="submit" disabled={save.busy}>
          Keep
        </button>
      </div>
      <p className="help" id={`${id}-why`}>
        The server does not say. It is kept for this model and shown with it, so you know how much of the conversation
        fits (the server&apos;s --ctx-size, or the context length set when the model was loaded).
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
