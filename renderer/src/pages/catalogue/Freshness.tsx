import type { HubFreshness } from '@shared/contract/hub';
import { formatAge } from '../../lib/format';

/** Where a Hub answer came from: live, or a cached copy with its age (and why). */
export function Freshness({ f }: { f: HubFreshness }) {
  if (f.source === 'network' || f.source === 'revalidated')
    return <span className="badge badge-ok">live from the Hub</span>;
  return (
    <span className="badge badge-warn" data-testid="model-cached" title={f.reason}>
      cached · {formatAge(f.fetchedAt)}
    </span>
  );
}
