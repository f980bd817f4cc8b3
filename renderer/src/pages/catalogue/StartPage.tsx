import type { CatalogueView } from '../../store/catalogue';
import { RecentlyUsed } from './RecentlyUsed';
import { RunsHere } from './RunsHere';
import { TaskGroups } from './TaskGroups';
import './start.css';

/**
 * Hub access on and nothing typed or filtered: what runs on this machine and what was opened lately, then the tasks,
 * above the Hub's trending lists (the page puts those below).
 */
export function StartPage({ view }: { view: CatalogueView }) {
  return (
    <div className="start-page" data-testid="start-page">
      {/* First: at 1024 px the task lists run over two screens, and what runs here is what the page is for. */}
      <div className="start-row">
        <RunsHere />
        <RecentlyUsed />
      </div>
      <TaskGroups view={view} />
    </div>
  );
}
