import { useRef, useState } from 'react';
import type { DocTarget } from '@shared/contract/documents';
import { isDesktop } from '../../../api';
import { useDocActions } from '../../../hooks/documents';
import { useDocuments } from '../../../store/documents';
import { ThreadMenu } from '../ThreadMenu';
import { FolderDialog } from './FolderDialog';

/** The formats the indexer reads, for the browser's file picker (others are refused by main in words). */
const DOC_ACCEPT =
  '.txt,.md,.markdown,.pdf,.docx,.html,.htm,.csv,.json,.js,.ts,.tsx,.jsx,.py,.rs,.go,.java,.c,.cpp,.h,.cs,.rb,.php,.sh,.sql,.yaml,.yml,.toml,.xml';

/**
 * "Attach": files or a folder. On the desktop main's open dialog picks them (a folder is indexed in place and
 * watched); in the browser the file picker uploads copies, and a folder is given by its path on this computer.
 */
export function AttachButton({ target, label = 'Attach' }: { target: DocTarget; label?: string }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const [folder, setFolder] = useState(false);
  const { attachPick } = useDocActions();
  const upload = useDocuments((s) => s.upload);
  return (
    <>
      <ThreadMenu
        label={label}
        buttonRef={menuButton}
        items={[
          {
            label: 'Files…',
            title: 'Documents the model can read: text, Markdown, code, PDF, DOCX, HTML, CSV, JSON',
            run: () => (isDesktop ? void attachPick.run(target, false) : fileRef.current?.click()),
          },
          {
            label: 'Folder…',
            title: 'A folder, indexed where it is (never copied) and kept up to date',
            run: () => (isDesktop ? void attachPick.run(target, true) : setFolder(true)),
          },
        ]}
      />
      <input
        ref={fileRef}
        type="file"
        multiple
        hidden
        accept={DOC_ACCEPT}
        data-testid="doc-file-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) upload(target, files);
        }}
      />
      {attachPick.error && (
        <span className="doc-error small" role="alert">
          {attachPick.error.message}
        </span>
      )}
      {folder && (
        <FolderDialog
          target={target}
          onClose={() => {
            setFolder(false);
            menuButton.current?.focus();
          }}
        />
      )}
    </>
  );
}
