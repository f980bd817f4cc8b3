import type { EndpointModel } from '@shared/contract/endpoints';

/**
 * What the chat engines need of the user's OpenAI-compatible endpoints (services/endpoints implements it): where
 * requests go, and the fetch that carries the endpoint's key to its own origin only.
 */
export interface EndpointConnection {
  id: string;
  name: string;
  /** The OpenAI base URL, `/v1` included when the server needs it (e.g. http://127.0.0.1:8080/v1). */
  baseUrl: string;
  /** The key-bound fetch: the endpoint's key on requests to its origin only, never after a redirect away. */
  fetch: typeof fetch;
  /** What the endpoint says of one of its models (images taken, context length), or undefined when it cannot say. */
  describe(model: string): Promise<EndpointModel | undefined>;
}

export interface EndpointPort {
  /** The endpoint, or undefined when it was removed. */
  connection(id: string): EndpointConnection | undefined;
}
