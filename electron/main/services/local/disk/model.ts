import { basename, dirname, join, posix } from 'node:path';
import type { LocalModel } from '@shared/contract/local-models';
import type { FitHardware } from '@shared/fit';
import type { Candidate } from './candidates';
import { quantFromName, type GgufFacts, type HeaderCache } from './gguf-facts';
import { loadPlan } from './plan';

const SPLIT = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;

/** One model: a single file, or the parts of a split GGUF (`name-0000k-of-0000N.gguf`) found in one folder. */
export interface PartGroup {
  /** Index k-1 holds part k; a missing part is undefined. */
  parts: (Candidate | undefined)[];
}

/** Groups split parts by folder, prefix and count; any other file is a group of one. Order of first sight is kept. */
export function groupParts(found: Candidate[]): PartGroup[] {
  const groups: PartGroup[] = [];
  const byKey = new Map<string, PartGroup>();
  for (const c of found) {
    const m = SPLIT.exec(basename(c.path));
    const total = m ? Number(m[3]) : 0;
    const index = m ? Number(m[2]) : 0;
    if (!m || total < 1 || index < 1 || index > total) {
      groups.push({ parts: [c] });
      continue;
    }
    const key = `${c.source}\0${dirname(c.path)}\0${m[1].toLowerCase()}\0${total}`;
    let g = byKey.get(key);
    if (!g) {
      g = { parts: Array.from({ length: total }, () => undefined) };
      byKey.set(key, g);
      groups.push(g);
    }
    g.parts[index - 1] = c;
  }
  return groups;
}

/** Every part's path in order, derived from the first part's name (one path for a single file). */
export function partPaths(path: string, parts: number): string[] {
  const m = SPLIT.exec(basename(path));
  if (!m || parts <= 1) return [path];
  const width = m[2].length;
  return Array.from({ length: parts }, (_, i) =>
    join(dirname(path), `${m[1]}-${String(i + 1).padStart(width, '0')}-of-${m[3]}.gguf`),
  );
}

/** The display name: the file name without the split suffix and `.gguf`. */
function displayName(file: string): string {
  const m = SPLIT.exec(file);
  return (m ? m[1] : file).replace(/\.gguf$/i, '');
}

function missingProblem(missing: number[], total: number): string {
  if (missing.length === 1) return `part ${missing[0]} of ${total} is missing`;
  const list = `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
  return `parts ${list} of ${total} are missing`;
}

/**
 * The `LocalModel` for a group: headers read (cached), problems stated, the load plan for this machine; with the
 * header facts of a usable model, so its plan can be made again for other hardware.
 */
export async function buildModel(
  g: PartGroup,
  headers: HeaderCache,
  hw: FitHardware | undefined,
): Promise<{ model: LocalModel; facts?: GgufFacts }> {
  const present = g.parts.filter((c): c is Candidate => !!c);
  const first = g.parts[0] ?? present[0];
  const total = g.parts.length;
  const path = total > 1 ? partPaths(first.path, total)[0] : first.path;
  const fileName = basename(path);
  const inRepo = first.inRepo && total > 1 ? posix.join(posix.dirname(first.inRepo), fileName) : first.inRepo;
  const sizeBytes = present.reduce((a, c) => a + c.size, 0);
  const missing = g.parts.flatMap((c, i) => (c ? [] : [i + 1]));

  let problem = missing.length ? missingProblem(missing, total) : present.find((c) => c.problem)?.problem;
  let facts;
  for (const [i, c] of g.parts.entries()) {
    if (!c || problem) break;
    const read = await headers.read(c.path, c.size, c.mtimeMs);
    if (read.problem) problem = total > 1 ? `part ${i + 1} of ${total}: ${read.problem}` : read.problem;
    else if (i === 0) facts = read.facts;
  }
  const repo = first.repo && inRepo ? first.repo : undefined;
  const model: LocalModel = {
    id: repo ? `${repo}/${inRepo}` : path,
    name: displayName(fileName),
    path,
    parts: total,
    source: first.source,
    folder: first.folder,
    repo,
    quant: quantFromName(fileName) ?? facts?.fileQuant,
    architecture: facts?.architecture,
    title: facts?.title,
    sizeBytes,
    embedding: facts?.embedding ?? false,
    ...(facts?.reranker ? { reranker: true } : {}),
    deletable: first.deletable,
    verified: first.verified === undefined ? undefined : present.every((c) => c.verified) && !missing.length,
    plan: facts && !problem ? loadPlan(facts, sizeBytes, hw) : undefined,
    problem,
  };
  return { model, facts: problem ? undefined : facts };
}
