import type { TreeEntry } from '@shared/contract/hub-repo';

/** A folder of a repo tree with the total size and file count of everything under it. */
export interface FolderNode {
  name: string;
  path: string;
  folders: FolderNode[];
  files: TreeEntry[];
  size: number;
  fileCount: number;
}

/**
 * Builds the folder tree of a flat, recursive listing: folders first then files, each by name, with folder
 * totals summed bottom-up. Folders only implied by a file's path are created too.
 */
export function buildFileTree(entries: readonly TreeEntry[]): FolderNode {
  const root: FolderNode = { name: '', path: '', folders: [], files: [], size: 0, fileCount: 0 };
  const byPath = new Map<string, FolderNode>([['', root]]);
  const folder = (path: string): FolderNode => {
    const found = byPath.get(path);
    if (found) return found;
    const cut = path.lastIndexOf('/');
    const parent = folder(cut < 0 ? '' : path.slice(0, cut));
    const node: FolderNode = { name: path.slice(cut + 1), path, folders: [], files: [], size: 0, fileCount: 0 };
    parent.folders.push(node);
    byPath.set(path, node);
    return node;
  };
  for (const e of entries) {
    if (e.type === 'directory') {
      folder(e.path);
      continue;
    }
    const cut = e.path.lastIndexOf('/');
    folder(cut < 0 ? '' : e.path.slice(0, cut)).files.push(e);
  }
  const total = (n: FolderNode): void => {
    n.folders.sort((a, b) => a.name.localeCompare(b.name));
    n.files.sort((a, b) => a.path.localeCompare(b.path));
    n.size = n.files.reduce((s, f) => s + (f.lfs?.size ?? f.size), 0);
    n.fileCount = n.files.length;
    for (const f of n.folders) {
      total(f);
      n.size += f.size;
      n.fileCount += f.fileCount;
    }
  };
  total(root);
  return root;
}
