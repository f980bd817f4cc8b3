import { useState } from 'react';
import type { RepoKind } from '@shared/contract/hub-repo';
import { RepoCard } from './RepoCard';
import { RepoFiles } from './RepoFiles';
import './repo.css';

const cardLabel = { model: 'Model card', dataset: 'Dataset card', space: 'App card' };

/** "Model card" and "Files" as tabs, as on huggingface.co; the Files tab loads only when opened. */
export function RepoTabs({ kind, id, cardData }: { kind: RepoKind; id: string; cardData?: Record<string, unknown> }) {
  const [tab, setTab] = useState<'card' | 'files'>('card');
  const tabs = [
    ['card', cardLabel[kind]],
    ['files', 'Files'],
  ] as const;
  return (
    <section className="card repo-tabs" data-testid="repo-tabs">
      <div className="sw-tabs repo-tablist" role="tablist" aria-label="Repo">
        {tabs.map(([key, label]) => (
          <button
            key={key}
            role="tab"
            id={`repo-tab-${key}`}
            aria-selected={tab === key}
            aria-controls={`repo-panel-${key}`}
            className={`sw-tab${tab === key ? ' on' : ''}`}
            data-testid={`repo-tab-${key}`}
            onClick={() => setTab(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`repo-panel-${tab}`} aria-labelledby={`repo-tab-${tab}`} className="repo-panel">
        {tab === 'card' ? <RepoCard kind={kind} id={id} cardData={cardData} /> : <RepoFiles kind={kind} id={id} />}
      </div>
    </section>
  );
}
