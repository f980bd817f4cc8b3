import { describe, expect, it } from 'vitest';
import type { CatalogueModel } from '@shared/contract/catalogue';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { SnippetEngine } from '../../electron/main/services/snippets/engine';
import { librarySampleModel } from '../../renderer/src/lib/library-sample';

const { models } = buildCatalogue('test');
const librarySnippet = (lib: string) => {
  const model = librarySampleModel(lib, models);
  if (!model) throw new Error(`no embedded ${lib} model`);
  const section = new SnippetEngine().generate({ model, kinds: ['library'] }).sections[0];
  return { model, contents: section.snippets.map((s) => s.content) };
};

describe('the library page sample', () => {
  it('transformers: a real snippet for an embedded model, not "Type of model unknown"', () => {
    const { model, contents } = librarySnippet('transformers');
    expect(model.transformersInfo?.auto_model).toMatch(/^AutoModel/);
    expect(contents.join('\n')).not.toContain('⚠️');
    expect(contents.join('\n')).toContain(`${model.transformersInfo!.auto_model}.from_pretrained("${model.id}"`);
  });

  it('keeps a record of its own transformersInfo, and takes it before one whose class comes from its task', () => {
    const own: CatalogueModel = {
      id: 'z/own',
      tags: [],
      library_name: 'transformers',
      pipeline_tag: 'any-to-any',
      transformersInfo: { auto_model: 'AutoModelForAnything' },
      tasks: [],
      widget: false,
    };
    expect(librarySampleModel('transformers', [...models, own])).toMatchObject({
      id: 'z/own',
      transformersInfo: { auto_model: 'AutoModelForAnything' },
    });
  });

  it('other libraries: the richest record, as it is', () => {
    const { model, contents } = librarySnippet('timm');
    expect(model).not.toHaveProperty('transformersInfo');
    expect(model).not.toHaveProperty('tasks');
    expect(contents[0]).toContain(`timm.create_model("hf_hub:${model.id}"`);
  });

  it('the offline model page: every embedded transformers model of a known task has its class, so a real snippet', () => {
    const ofLib = models.filter((m) => m.library_name === 'transformers');
    const known = ofLib.filter((m) => m.pipeline_tag === 'image-text-to-text');
    expect(known.length).toBeGreaterThan(0);
    for (const m of known) expect(m.transformersInfo?.auto_model).toBe('AutoModelForImageTextToText');
    // The record the model page sends: the embedded one without the catalogue's own fields.
    const { tasks: _t, widget: _w, ...record } = known[0];
    const section = new SnippetEngine().generate({ model: record, kinds: ['library'] }).sections[0];
    const text = section.snippets.map((s) => s.content).join('\n');
    expect(text).not.toContain('⚠️');
    expect(text).toContain(`AutoModelForImageTextToText.from_pretrained("${record.id}"`);
    // Other libraries' models are left as they are.
    expect(models.find((m) => m.library_name === 'timm')).not.toHaveProperty('transformersInfo');
  });

  it('no embedded model of the library: none', () => {
    expect(librarySampleModel('no-such-library', models)).toBeUndefined();
  });
});
