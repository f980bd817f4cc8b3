// react-markdown + remark-gfm: the whole message re-rendered by React on each frame's batch of chunks.
import { useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import '../shared/peer.css';
import { mountPeer } from '../shared/harness';
import { textStore } from '../shared/text-store';

const store = textStore();
const plugins = [remarkGfm];
function App() {
  const { text } = useSyncExternalStore(store.subscribe, store.get);
  return <ReactMarkdown remarkPlugins={plugins}>{text}</ReactMarkdown>;
}
createRoot(document.getElementById('msg')!).render(<App />);
mountPeer(store);
