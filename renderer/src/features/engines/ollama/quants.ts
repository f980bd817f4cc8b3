import type { GgufQuant } from '@shared/contract/hub-repo';
import { useLocalModels } from '../../../hooks/models';
import { ollamaName } from '../../../lib/compare-quants';
import { quantWords } from '../../../lib/engines';
import { formatBytes, percent } from '../../../lib/format';
import { isActive, jobTotals, usePulls } from '../../../store/pulls';
import { useStatus } from '../../../store/status';
import type { Presence, QuantTarget } from '../types';

const OLLAMA_DOWN = 'Ollama is not running. Start it with "ollama serve".';

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Compare quants on Ollama: each quant pulled as `hf.co/<repo>:<quant>`, from what Ollama lists and the pulls store.
 * `ours`: the pulls the dialog started (only their failures are its to show).
 */
export function useOllamaQuants(repo: string, quants: readonly GgufQuant[], ours: readonly string[]): QuantTarget {
  const ollama = useLocalModels();
  const pulls = usePulls();
  const down = useStatus((s) => s.ollama?.reachable === false);
  const presence = new Map<string, Presence>();
  for (const q of quants) {
    const name = ollamaName(repo, q.label);
    const job = [...pulls.jobs].reverse().find((j) => j.kind === 'pull' && sameName(j.model, name));
    if (job?.state === 'success' || ollama.models?.some((m) => sameName(m.name, name))) {
      presence.set(q.label, { kind: 'here', model: job?.model ?? name });
    } else if (job && isActive(job)) {
      const t = jobTotals(job);
      const pct = percent(t.completed, t.total);
      const text = job.state === 'queued' ? 'waiting for another pull' : job.status;
      presence.set(q.label, {
        kind: 'busy',
        pct,
        text: t.total > 0 ? `${text} · ${formatBytes(t.completed)} of ${formatBytes(t.total)}` : text,
        job: job.id,
      });
    } else {
      const mine = job && ours.includes(job.id);
      presence.set(q.label, {
        kind: 'missing',
        error: mine && job.state === 'error' ? (job.error?.message ?? 'The pull failed.') : undefined,
        cancelled: mine && job.state === 'cancelled',
      });
    }
  }
  return {
    engine: 'ollama',
    words: quantWords('ollama'),
    name: 'Ollama',
    note: down ? OLLAMA_DOWN : `as hf.co/${repo}:<quant>`,
    problem: down ? OLLAMA_DOWN : undefined,
    presence,
    known: !!(ollama.models || ollama.error),
    fetch: (labels, started) => {
      for (const label of labels) started(pulls.pull(ollamaName(repo, label)));
      return true;
    },
    cancel: (job) => pulls.cancel(job),
    starting: false,
  };
}
