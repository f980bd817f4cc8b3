/** What a streaming call's work gets from whoever runs it (the router): its cancellation and where events go. */
export interface StreamContext<E> {
  signal: AbortSignal;
  emit(event: E): void;
}
