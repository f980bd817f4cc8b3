import { useCanChat } from '../hooks/models';
import { hrefFor, newChatHref } from '../store/route';

/**
 * The way on from a model pulled into Ollama: a new chat with it, or, for a model that cannot chat (embedding only,
 * as Ollama says), where it is used instead. A link until Ollama has said otherwise.
 */
export function ChatWithModel({
  model,
  label,
  className,
  testid = 'chat-with-model',
  onModelsPage = false,
}: {
  model: string;
  label: string;
  className: string;
  testid?: string;
  /** Shown on Local models, whose Embeddings panel is below. */
  onModelsPage?: boolean;
}) {
  if (useCanChat(model) === false)
    return (
      <span className="muted small" data-testid="no-chat">
        An embedding model: it turns text into vectors and cannot chat. Try it in Embeddings
        {onModelsPage ? (
          ' below.'
        ) : (
          <>
            {' '}
            on <a href={hrefFor('models')}>Local models</a>.
          </>
        )}
      </span>
    );
  return (
    <a className={className} href={newChatHref('ollama', model)} data-testid={testid}>
      {label}
    </a>
  );
}
