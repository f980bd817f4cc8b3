import type { EngineRef, Footprint } from './types';

/**
 * A model another server holds (the router's providers, an endpoint): nothing to load from here, and nothing of this
 * machine's memory for Compare's plan.
 */
export function remoteFootprint(ref: EngineRef): Promise<Footprint> {
  return Promise.resolve({
    where: 'remote',
    engine: 'The server',
    name: ref.model,
    key: `remote\n${ref.model}`,
    loaded: false,
  });
}
