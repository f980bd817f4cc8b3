import { create } from 'zustand';
import { DOC_UPLOAD_PART_CHARS, type DocTarget, type KnowledgeBase } from '@shared/contract/documents';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';

/**
 * Documents as the page shows them: the bases main reports (live, through `docs.watch`), and the files the page is
 * uploading (drag and drop, the browser's picker). Uploads live here, not in a component, so they go on when the
 * user leaves the chat; main indexes in the background either way.
 */

export interface Upload {
  key: string;
  name: string;
  /** Which conversation (or base) it goes to, for the chips of that conversation. */
  target: DocTarget;
  sentBytes: number;
  sizeBytes: number;
  state: 'queued' | 'sending' | 'error';
  error?: AppErrorShape;
}

/** A file to send: the browser's `File` fits. */
export interface UploadFile {
  name: string;
  size: number;
  slice(start: number, end: number): Blob;
}

interface DocumentsState {
  /** The bases each watch reported, by its key (a conversation id, or '' for the named bases alone). */
  bases: Record<string, KnowledgeBase[]>;
  uploads: Upload[];
  setBases(key: string, bases: KnowledgeBase[]): void;
  /** Puts a base answered by an action in place at once (the watch follows with the same). */
  putBase(base: KnowledgeBase): void;
  dropBase(id: string): void;
  upload(target: DocTarget, files: UploadFile[]): void;
  dismissUpload(key: string): void;
}

/** Bytes per part: the contract's part size in base64 characters, as bytes. */
const PART_BYTES = (DOC_UPLOAD_PART_CHARS / 4) * 3;

function base64Of(blob: Blob): Promise<string> {
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => fail(r.error);
    r.readAsDataURL(blob);
  });
}

const EMPTY: AppErrorShape = {
  code: 'invalid_input',
  message: 'This file is empty: there is nothing to index. Attach it again once it has text.',
};

let seq = 0;
const files = new Map<string, UploadFile>();
let sending = false;

export const useDocuments = create<DocumentsState>()((set, get) => {
  const patch = (key: string, p: Partial<Upload>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.key === key ? { ...u, ...p } : u)) }));

  /** One upload at a time, in order: parts, then the attach that starts indexing. */
  async function pump() {
    if (sending) return;
    sending = true;
    try {
      for (;;) {
        const next = get().uploads.find((u) => u.state === 'queued');
        if (!next) break;
        const file = files.get(next.key);
        if (!file) break;
        if (file.size === 0) {
          files.delete(next.key);
          patch(next.key, { state: 'error', error: EMPTY });
          continue;
        }
        patch(next.key, { state: 'sending' });
        try {
          let upload: string | undefined;
          for (let at = 0; at < file.size; at += PART_BYTES) {
            const data = await base64Of(file.slice(at, Math.min(file.size, at + PART_BYTES)));
            ({ upload } = await api.call('docs.uploadPart', { ...(upload ? { upload } : {}), data }));
            patch(next.key, { sentBytes: Math.min(file.size, at + PART_BYTES) });
          }
          const { base } = await api.call('docs.attachUpload', {
            target: next.target,
            upload: upload!,
            name: file.name,
          });
          get().putBase(base);
          files.delete(next.key);
          set((s) => ({ uploads: s.uploads.filter((u) => u.key !== next.key) }));
        } catch (e) {
          files.delete(next.key);
          patch(next.key, { state: 'error', error: e as AppErrorShape });
        }
      }
    } finally {
      sending = false;
    }
  }

  return {
    bases: {},
    uploads: [],
    setBases: (key, bases) => set((s) => ({ bases: { ...s.bases, [key]: bases } })),
    putBase: (base) =>
      set((s) => {
        const bases: Record<string, KnowledgeBase[]> = {};
        for (const [k, list] of Object.entries(s.bases)) {
          const has = list.some((b) => b.id === base.id);
          // A conversation's own base first appears with its first attachment.
          const mine = base.conversation !== undefined && base.conversation === k;
          bases[k] = has
            ? list.map((b) => (b.id === base.id ? base : b))
            : mine || !base.conversation
              ? [...list, base]
              : list;
        }
        return { bases };
      }),
    dropBase: (id) =>
      set((s) => ({
        bases: Object.fromEntries(Object.entries(s.bases).map(([k, list]) => [k, list.filter((b) => b.id !== id)])),
      })),
    upload: (target, list) => {
      const added = list.map((f): Upload => {
        const key = `up${++seq}`;
        files.set(key, f);
        return { key, name: f.name, target, sentBytes: 0, sizeBytes: f.size, state: 'queued' };
      });
      set((s) => ({ uploads: [...s.uploads, ...added] }));
      void pump();
    },
    dismissUpload: (key) => set((s) => ({ uploads: s.uploads.filter((u) => u.key !== key) })),
  };
});
