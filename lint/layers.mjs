// The folder-depth layer rule, after VS Code's `code-layering`: each ladder lists folders bottom to top, and a file
// may import from its own rung and the rungs below it, never from a rung above. Imports are resolved to a path in the
// repository first, so `../pages/x` from `store/` and `../../pages/x` from `store/sub/` are the same break, and a
// module merely named like a folder (`hooks/app.ts`) is not mistaken for it (`app/`).
import path from 'node:path';

const root = path.dirname(import.meta.dirname);

/** The repository-relative path an import names, or undefined for a package. */
function resolveImport(file, source) {
  if (source.startsWith('@shared/')) return `shared/${source.slice('@shared/'.length)}`;
  if (!source.startsWith('.')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), source));
}

/** The rung of a ladder a path stands on: the longest folder (or file, without its extension) that holds it. */
function rungOf(ladder, file) {
  let best;
  ladder.forEach((folder, index) => {
    const holds = file === folder || file.startsWith(`${folder}/`) || file.replace(/\.[cm]?[jt]sx?$/, '') === folder;
    if (holds && (!best || folder.length > best.folder.length)) best = { folder, index };
  });
  return best;
}

export const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder imports only from its own layer and the layers below it.' },
    schema: [
      {
        type: 'object',
        properties: { ladders: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        additionalProperties: false,
      },
    ],
    messages: {
      above:
        '{{from}} may not import {{target}}, a layer above it (CONTRIBUTING.md, "The layout"). Move what both need down a layer.',
    },
  },
  create(context) {
    const ladders = context.options[0]?.ladders ?? [];
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const check = (node) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      const target = resolveImport(file, node.value);
      if (!target) return;
      for (const ladder of ladders) {
        const from = rungOf(ladder, file);
        const to = from && rungOf(ladder, target);
        if (to && to.index > from.index) {
          context.report({ node, messageId: 'above', data: { from: from.folder, target } });
        }
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
