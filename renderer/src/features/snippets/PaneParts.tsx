import type { ReactNode } from 'react';
import type { Snippet, SnippetKind, SnippetsResult } from '@shared/contract/snippets';
import { tabId, TabList } from '../../components/Tabs';

export const languageLabels: Record<string, string> = { python: 'Python', js: 'JavaScript', sh: 'Shell' };
const snippetKinds = ['inference', 'library', 'local-app', 'local-server'] as const;
/** The workbench's tabs: the snippet kinds main generates, and "Other apps" (a GGUF on disk through HubDesk's server). */
export type WorkbenchKind = SnippetKind | 'other-apps';
export const kindLabels: Record<WorkbenchKind, string> = {
  inference: 'Inference',
  library: 'Library',
  'local-app': 'Local apps',
  'local-server': 'Local server',
  'other-apps': 'Other apps',
};

/**
 * The snippet kinds, each with its count once generated, and Other apps when `withApps`; they control the panel
 * `sw-kind-panel`.
 */
export function KindTabs(p: {
  kind: WorkbenchKind;
  result?: SnippetsResult;
  withApps: boolean;
  onPick(kind: WorkbenchKind): void;
}) {
  const items: readonly WorkbenchKind[] = p.withApps ? [...snippetKinds, 'other-apps'] : snippetKinds;
  return (
    <TabList
      label="Snippet kind"
      items={items}
      value={p.kind}
      onChange={p.onPick}
      idPrefix="sw-kind"
      panelId="sw-kind-panel"
      className="sw-tabs"
      tabClassName="sw-tab"
      testid={(k) => `kind-${k}`}
    >
      {(k) => {
        const n = p.result?.sections.find((s) => s.kind === k)?.snippets.length;
        return (
          <>
            {kindLabels[k]}
            {n !== undefined && <span className="sw-count">{n}</span>}
          </>
        );
      }}
    </TabList>
  );
}

/** The pane the language and client tabs control, labelled by both. */
export const PANE_ID = 'sw-pane';
export const paneLabelledBy = (language?: string, client?: string) =>
  `${tabId('sw-lang', language ?? '')} ${tabId('sw-client', client ?? '')}`;

/** One row of tabs over the snippet pane (its language, or its client). */
function PaneTabs(p: {
  label: string;
  id: string;
  testid: string;
  items: string[];
  value?: string;
  onChange(value: string): void;
  children(value: string): ReactNode;
}) {
  return (
    <TabList
      label={p.label}
      items={p.items}
      value={p.value}
      onChange={p.onChange}
      idPrefix={p.id}
      panelId={PANE_ID}
      className="segmented"
      testid={(v) => `${p.testid}-${v}`}
    >
      {p.children}
    </TabList>
  );
}

/** Language and client tabs, and the variant picker when a client has several snippets. */
export function SnippetPickers(p: {
  languages: string[];
  language?: string;
  clients: string[];
  client?: string;
  variants: Snippet[];
  variant: number;
  onLanguage(language: string): void;
  onClient(client: string): void;
  onVariant(index: number): void;
}) {
  return (
    <div className="sw-pickers">
      <PaneTabs
        label="Language"
        id="sw-lang"
        testid="lang"
        items={p.languages}
        value={p.language}
        onChange={p.onLanguage}
      >
        {(l) => languageLabels[l] ?? l}
      </PaneTabs>
      <PaneTabs label="Client" id="sw-client" testid="client" items={p.clients} value={p.client} onChange={p.onClient}>
        {(c) => c}
      </PaneTabs>
      {p.variants.length > 1 && (
        <select
          value={p.variant}
          onChange={(e) => p.onVariant(Number(e.target.value))}
          aria-label="Variant"
          className="sw-variant"
        >
          {p.variants.map((v, i) => (
            <option key={i} value={i}>
              {v.title ?? `Variant ${i + 1}`}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

/** What a snippet needs around it: the library's setup note, HubDesk's own note, and the install line. */
export function SnippetNotes({
  snippet,
  onCopy,
}: {
  snippet: Pick<Snippet, 'setup' | 'note' | 'install'>;
  onCopy(text: string): void;
}) {
  return (
    <>
      {snippet.setup && <p className="help sw-setup">{snippet.setup}</p>}
      {snippet.note && (
        <p className="help sw-setup" data-testid="snippet-note">
          {snippet.note}
        </p>
      )}
      {snippet.install && (
        <div className="sw-install">
          <code data-testid="install-line">{snippet.install}</code>
          <button
            className="btn btn-ghost sw-small"
            onClick={() => onCopy(snippet.install!)}
            data-testid="copy-install"
          >
            Copy
          </button>
        </div>
      )}
    </>
  );
}

/** The pane's title and actions; a token action is offered only when its handler is given. */
export function PaneToolbar(p: {
  title: string;
  edited: boolean;
  canReset: boolean;
  busy: boolean;
  onCopy(): void;
  onReset(): void;
  onSave(): void;
  onMyToken?: () => void;
  onFalToken?: () => void;
}) {
  return (
    <div className="sw-toolbar">
      <span className="sw-title">
        {p.title}
        {p.edited && <span className="badge">edited</span>}
      </span>
      <span className="sw-actions">
        <button className="btn btn-primary sw-small" onClick={p.onCopy} data-testid="copy-snippet">
          Copy
        </button>
        <button className="btn sw-small" disabled={!p.canReset} onClick={p.onReset} data-testid="reset-snippet">
          Reset
        </button>
        <button className="btn sw-small" onClick={p.onSave} data-testid="save-snippet">
          Save to project…
        </button>
        {p.onMyToken && (
          <button className="btn btn-ghost sw-small" disabled={p.busy} onClick={p.onMyToken}>
            Insert my token
          </button>
        )}
        {p.onFalToken && (
          <button className="btn btn-ghost sw-small" disabled={p.busy} onClick={p.onFalToken} data-testid="fal-token">
            Insert a 2-minute token
          </button>
        )}
      </span>
    </div>
  );
}
