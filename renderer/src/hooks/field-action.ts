import { useState, type FormEvent } from 'react';

/**
 * A text field that an action takes (a name, a path, a key, an origin): sent trimmed, never empty or while `valid`
 * says no; once the action succeeds (a truthy result) the field is cleared and `onDone` told. The follow-up lives
 * here, not in a component's `.then(`.
 */
export function useFieldAction<T>(
  run: (text: string) => Promise<T | undefined>,
  { onDone, valid }: { onDone?: (result: T) => void; valid?: (text: string) => boolean } = {},
): {
  value: string;
  setValue(value: string): void;
  /** Something worth sending is typed. */
  ready: boolean;
  submit(): void;
  onSubmit(e: FormEvent): void;
} {
  const [value, setValue] = useState('');
  const text = value.trim();
  const ready = text !== '' && (valid?.(text) ?? true);
  const submit = () => {
    if (!ready) return;
    void run(text).then((result) => {
      if (!result) return;
      setValue('');
      onDone?.(result);
    });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit();
  };
  return { value, setValue, ready, submit, onSubmit };
}
