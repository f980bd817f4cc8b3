import { useEffect, useState } from 'react';

/** Puts `text` on the browser's clipboard: true once there, false where it refused or there is none. */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (!navigator.clipboard) return false;
  return navigator.clipboard.writeText(text).then(
    () => true,
    () => false,
  );
}

/**
 * A Copy button that says what happened in place ("Copied", or that the clipboard refused) for a few seconds; the
 * words are live so a screen reader hears them too.
 */
export function CopyButton({
  label,
  copy,
  text = 'Copy',
  className = 'btn btn-sm',
}: {
  /** What is copied, for the button's accessible name ("Copy <label>"). */
  label: string;
  copy: () => Promise<boolean>;
  text?: string;
  className?: string;
}) {
  const [said, setSaid] = useState<'copied' | 'refused' | 'failed'>();
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (!said) return;
    const t = setTimeout(() => setSaid(undefined), 4000);
    return () => clearTimeout(t);
  }, [said]);
  const run = async () => {
    try {
      setSaid((await copy()) ? 'copied' : 'refused');
    } catch (e) {
      setFailure((e as Error).message);
      setSaid('failed');
    }
  };
  // The button's words stay put (its accessible name must hold them); what happened shows beside it.
  return (
    <span className="copy-button">
      <button
        type="button"
        className={className}
        aria-label={text === 'Copy' ? `Copy ${label}` : undefined}
        onClick={() => void run()}
      >
        {text}
      </button>
      <span className={said === 'copied' ? 'muted small' : 'field-error small'} role="status">
        {said === 'copied'
          ? 'Copied'
          : said === 'refused'
            ? 'The clipboard is not available here: select the text and copy it.'
            : said === 'failed'
              ? failure
              : ''}
      </span>
    </span>
  );
}
