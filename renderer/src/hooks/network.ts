import type { ConnectionTest, NetworkStatus } from '@shared/contract/network';
import { api } from '../api';
import { useQuery, type Query } from './query';

/**
 * Settings → Network's status (the Hub's route, the proxies set, what TLS trusts), asked again whenever `deps`
 * change; the status shown stays on screen until the new answer (`last`).
 */
export function useNetworkStatus(deps: readonly unknown[]): Query<NetworkStatus> & { last?: NetworkStatus } {
  return useQuery(() => api.call('network.status', {}), deps, true, undefined, true);
}

/** One request the way every call goes (main bounds it to 15 s): to `url`, or to the Hub endpoint without one. */
export function testConnection(url?: string): Promise<ConnectionTest> {
  return api.call('network.test', url === undefined ? {} : { url });
}
