import { Empty } from '../../components/States';

export function ChatPage() {
  return (
    <section className="page">
      <header className="page-header">
        <h1>Chat</h1>
      </header>
      <Empty title="No conversations yet">
        Chat with a model pulled into Ollama, or with a hosted model through the Hugging Face inference router.
      </Empty>
    </section>
  );
}
