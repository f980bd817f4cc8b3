import { useState } from 'react';
import type { RepoKind } from '@shared/contract/hub-repo';
import { tabId, TabList } from '../../components/Tabs';
import { RepoCard } from './RepoCard';
import { RepoFiles } from './RepoFiles';
import './repo.css';

type RepoTab = 'card' | 'files';
const repoTabs: readonly RepoTab[] = ['card', 'files'];
const cardLabel = { model: 'Model card', dataset: 'Dataset card', space: 'Space card' };

/** "Model card" and "Files" as tabs, as on huggingface.co; the Files tab loads only when opened. */
export function RepoTabs({ kind, id, cardData }: { kind: RepoKind; id: string; cardData?: Record<string, unknown> }) {
  const [tab, setTab] = useState<RepoTab>('card');
  return (
    <section className="card repo-tabs" data-testid="repo-tabs">
      <TabList<RepoTab>
        label="Repo"
        items={repoTabs}
        value={tab}
        onChange={setTab}
        idPrefix="repo"
        panelId="repo-panel"
        className="sw-tabs repo-tablist"
        tabClassName="sw-tab"
        testid={(k) => `repo-tab-${k}`}
      >
        {(k) => (k === 'card' ? cardLabel[kind] : 'Files')}
      </TabList>
      <div role="tabpanel" id="repo-panel" aria-labelledby={tabId('repo', tab)} className="repo-panel">
        {tab === 'card' ? <RepoCard kind={kind} id={id} cardData={cardData} /> : <RepoFiles kind={kind} id={id} />}
      </div>
    </section>
  );
}
