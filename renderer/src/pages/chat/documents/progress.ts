import type { DocumentInfo } from '@shared/contract/documents';

/** Busy states: the document is not searchable yet. */
export const indexing = (d: DocumentInfo) =>
  d.state === 'queued' || d.state === 'extracting' || d.state === 'embedding';

const stateWord: Record<DocumentInfo['state'], string> = {
  queued: 'Waiting',
  extracting: 'Reading',
  embedding: 'Indexing',
  ready: 'Ready',
  error: 'Failed',
};

function timeLeft(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${Math.max(s, 1)} s left`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min left` : `${Math.floor(m / 60)} h ${m % 60} min left`;
}

/** One line for a document's state: "Indexing 120/480 chunks · 35 chunks/s · 10 s left", or "Ready · 480 chunks". */
export function progressLine(d: DocumentInfo, stopped = false): string {
  if (d.state === 'error') return stateWord.error;
  // The base's indexing stopped (no embedding model, Ollama down): the strip says why; never "Indexing" here.
  if (stopped && d.state === 'embedding') return `Not indexed: ${d.chunksDone}/${d.chunks} chunks embedded`;
  const parts = [stateWord[d.state]];
  if (d.state === 'embedding' && d.chunks > 0) parts[0] += ` ${d.chunksDone}/${d.chunks} chunks`;
  else if (d.state === 'ready') parts.push(`${d.chunks} ${d.chunks === 1 ? 'chunk' : 'chunks'}`);
  if (d.pages) parts.push(`${d.pages} ${d.pages === 1 ? 'page' : 'pages'}`);
  if (d.state === 'embedding' && d.chunksPerSecond) parts.push(`${d.chunksPerSecond.toFixed(1)} chunks/s`);
  if (d.state === 'embedding' && d.etaMs !== undefined) parts.push(timeLeft(d.etaMs));
  return parts.join(' · ');
}

/** 0..1 of the document done, for its bar (undefined: no measure yet). */
export function fraction(d: DocumentInfo): number | undefined {
  if (d.state === 'ready') return 1;
  if (d.state === 'embedding' && d.chunks > 0) return Math.min(1, d.chunksDone / d.chunks);
  return undefined;
}
