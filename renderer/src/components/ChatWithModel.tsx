import { useCanChat } from '../hooks/models';
import { hrefFor, newChatHref } from '../store/route';

interface Props {
  model: string;
  label: string;
  className: string;
  testid?: string;
  /** Shown on Local models, whose Embeddings panel is below. */
  onModelsPage?: boolean;
  /**
   * The engine that runs it: Ollama (asked whether the model can chat), or the built-in engine, whose library
   * already says which models embed, so its chat link is given as is.
   */
  backend?: 'ollama' | 'local';
  /** In a table row: a short "why not" for an embedding model (the full sentence is its title). */
  compact?: boolean;
  'aria-label'?: string;
}

/**
 * The way on from a model pulled into Ollama or downloaded for the built-in engine: a new chat with it, or, for an
 * Ollama model that cannot chat (embedding only, as Ollama says), where it is used instead. A link until Ollama has
 * said otherwise.
 */
export function ChatWithModel({ backend = 'ollama', ...props }: Props) {
  if (backend === 'local') return <ChatLink {...props} backend="local" />;
  return <OllamaChatWithModel {...props} />;
}

function ChatLink({ model, label, className, testid = 'chat-with-model', backend, ...rest }: Props) {
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

function OllamaChatWithModel(props: Props) {
  const canChat = useCanChat(props.model);
  if (canChat === false && props.compact)
    return (
      <span
        className="muted small no-chat-short"
        data-testid="no-chat"
        title="It turns text into vectors and cannot chat; try it in Embeddings."
      >
        No chat (embeddings)
      </span>
    );
  if (canChat === false)
    return (
      <span className="muted small" data-testid="no-chat">
        An embedding model: it turns text into vectors and cannot chat. Try it in Embeddings
        {props.onModelsPage ? (
          ' below.'
        ) : (
          <>
            {' '}
            on <a href={hrefFor('models')}>Local models</a>.
          </>
        )}
      </span>
    );
  return <ChatLink {...props} />;
}
