import { describe, expect, it } from 'vitest';
import { ImportUploads } from '../../electron/main/services/chat/files/import-upload';

describe('ImportUploads: a file sent in parts', () => {
  it('joins the parts in order, once', () => {
    const u = new ImportUploads();
    const { upload } = u.add(undefined, 'ab');
    expect(u.add(upload, 'cd')).toEqual({ upload });
    u.add(upload, 'e');
    expect(u.take(upload)).toBe('abcde');
    expect(() => u.take(upload)).toThrow(/pick the file again/);
  });

  it('refuses a file past the bound, and forgets it', () => {
    const u = new ImportUploads(5);
    const { upload } = u.add(undefined, 'abc');
    expect(() => u.add(upload, 'def')).toThrow(/too long to import: more than 5 characters/);
    expect(() => u.add(upload, 'g')).toThrow(/pick the file again/);
  });

  it('keeps four files at once: a fifth forgets the one least recently added to', () => {
    const u = new ImportUploads();
    const ids = [1, 2, 3, 4].map((n) => u.add(undefined, `file ${n}`).upload);
    u.add(ids[0], ' more');
    u.add(undefined, 'file 5');
    expect(() => u.take(ids[1])).toThrow(/interrupted/);
    expect(u.take(ids[0])).toBe('file 1 more');
  });
});
