// streamdown (Vercel; Jan's renderer): <Streamdown> given the growing text, as its README shows for streaming.
import { useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { Streamdown } from 'streamdown';
import 'streamdown/styles.css';
import './tailwind-subset.css';
import '../shared/peer.css';
import { mountPeer } from '../shared/harness';
import { textStore } from '../shared/text-store';

const store = textStore();
function App() {
  const { text, done } = useSyncExternalStore(store.subscribe, store.get);
  return <Streamdown isAnimating={!done}>{text}</Streamdown>;
}
createRoot(document.getElementById('msg')!).render(<App />);
mountPeer(store);
