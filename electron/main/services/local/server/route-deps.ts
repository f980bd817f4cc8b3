import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalModel } from '@shared/contract/local-models';
import type { LoadedModel } from '@shared/contract/local-engine';
import type { LocalEngine } from '../../engines/local/engine';
import type { Logger } from '../../log';
import type { RequestRecord } from './request-log';

/** What the server's routes (OpenAI's and Anthropic's) work with: the engine, the models, the key, the log. */
export interface RouteDeps {
  port: number;
  key: string;
  /** Usable local models (no `problem`). */
  models: () => Promise<LocalModel[]>;
  /** What the engine holds now. */
  loaded: () => LoadedModel[];
  /** The built-in engine: chat turns, and plain-text completions. */
  engine: Pick<LocalEngine, 'turn' | 'complete' | 'countTokens'>;
  embed: (model: LocalModel, texts: string[]) => Promise<number[][]>;
  /** A reranker's score per document, in their order, and the tokens it evaluated. */
  rank: (model: LocalModel, query: string, documents: string[]) => Promise<{ scores: number[]; tokens: number }>;
  log: Logger;
  /** The Host and Origin checks (cors.ts): true when it answered the request itself (a refusal, a preflight). */
  gate: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** This request's entry in the request log: the route says its model, what it measured and why it failed. */
  record: RequestRecord;
}
