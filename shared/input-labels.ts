/**
 * The words a person reads for the contract's input fields, so a refused input names what they typed, not the
 * call or the field's code name ("Ollama address: must be an http(s) URL", not "settings.update: ollamaHost: …").
 * Keyed by the field's own name (the path's last named segment); a field not listed keeps its path.
 */
const fieldLabels: Record<string, string> = {
  // Settings (the page's own sections).
  ollamaHost: 'Ollama address',
  hubEndpoint: 'Hub endpoint',
  routerUrl: 'Inference router',
  falRestBase: 'fal REST base',
  defaultProvider: 'Default provider',
  billTo: 'Bill to',
  theme: 'Theme',
  hubAccess: 'Hub access',
  hardwareOverride: 'Hardware',
  noProxy: 'Bypass list',
  caFile: 'Extra certificates',
  // Names and ids that many calls take.
  model: 'Model',
  modelId: 'Model',
  repo: 'Repository',
  id: 'ID',
  name: 'Name',
  title: 'Title',
  url: 'Address',
  path: 'Path',
  query: 'Search',
  revision: 'Revision',
  quant: 'Quantisation',
  provider: 'Provider',
  content: 'Message',
  system: 'System prompt',
  // The local server's card.
  corsOrigins: 'Allowed origin',
};

interface InputIssue {
  path: readonly string[];
  message: string;
}

/** The label of one field path: its name in words, else the path itself (`messages.0.content` → "Message"). */
export function fieldLabel(path: readonly string[]): string {
  const named = [...path].reverse().find((p) => !/^\d+$/.test(p));
  return (named !== undefined && fieldLabels[named]) || path.join('.');
}

/** One line for a refused input: each issue as "Label: message" (an issue of the whole input as its message). */
export function describeInputIssues(issues: readonly InputIssue[]): string {
  const parts = issues.map((i) => (i.path.length ? `${fieldLabel(i.path)}: ${i.message}` : i.message));
  return [...new Set(parts)].join('; ');
}
