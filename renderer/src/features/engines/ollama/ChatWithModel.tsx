import { useCanChat } from '../../../hooks/models';
import { hrefFor } from '../../../store/route';
import { ChatLink, type ChatWithModelProps } from '../ChatLink';

/**
 * A new chat with an Ollama model, or, for one that cannot chat (embedding only, as Ollama says), where it is used
 * instead. A link until Ollama has said otherwise.
 */
export function OllamaChatWithModel(props: ChatWithModelProps) {
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
