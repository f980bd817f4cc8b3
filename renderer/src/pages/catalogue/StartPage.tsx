import type { CatalogueView } from '../../store/catalogue';
import { RecentlyUsed } from './RecentlyUsed';
import { RunsHere } from './RunsHere';
import { TaskGroups } from './TaskGroups';
import './start.css';

/**
 * Hub access on and nothing typed or filtered: the tasks, what runs on this machine and what was opened lately, above
 * the Hub's trending lists (the page puts those below).
 */
export function StartPage({ view }: { view: CatalogueView }) {
  return (
    <div className="start-page" data-testid="start-page">
      <TaskGroups view={view} />
      <div className="start-row">
        <RunsHere />
        <RecentlyUsed />
      </div>
    </div>
  );
}
