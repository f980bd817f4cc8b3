import type { NewChatBackend } from '../../lib/engines';
import { newChatHref } from '../../store/route';

export interface ChatWithModelProps {
  model: string;
  label: string;
  className: string;
  testid?: string;
  /** Shown on Local models, whose Embeddings panel is below. */
  onModelsPage?: boolean;
  /** The engine that runs it (Ollama unless said). */
  backend?: NewChatBackend;
  /** In a table row: a short "why not" for an embedding model (the full sentence is its title). */
  compact?: boolean;
  'aria-label'?: string;
}

/** A new chat with the model, on its engine. */
export function ChatLink({
  model,
  label,
  className,
  testid = 'chat-with-model',
  backend,
  ...rest
}: ChatWithModelProps) {
  return (
    <a
      className={className}
      href={newChatHref(backend ?? 'ollama', model)}
      data-testid={testid}
      aria-label={rest['aria-label']}
    >
      {label}
    </a>
  );
}
