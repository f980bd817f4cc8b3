import { ChatLink, type ChatWithModelProps } from './ChatLink';
import { engineUi } from './registry';

/**
 * The way on from a model pulled into Ollama or downloaded for the built-in engine: a new chat with it on that engine
 * (Ollama's first asks whether the model can chat: an embedding model is used elsewhere). The built-in engine's
 * library already says which models embed, so its link is given as is.
 */
export function ChatWithModel({ backend = 'ollama', ...props }: ChatWithModelProps) {
  const Own = engineUi(backend).ChatWithModel ?? ChatLink;
  return <Own {...props} backend={backend} />;
}
