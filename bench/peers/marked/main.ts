// marked + DOMPurify: the whole message parsed, sanitized and set as innerHTML on each frame's batch of chunks.
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import '../shared/peer.css';
import { mountPeer } from '../shared/harness';

const el = document.getElementById('msg')!;
mountPeer({
  render(text) {
    el.innerHTML = DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }));
  },
});
