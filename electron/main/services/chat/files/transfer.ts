import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { ChatStore } from '../storage/store';
import { exportFileName, toMarkdown } from './export-format';
import { ImportUploads } from './import-upload';

interface ExportFile {
  filename: string;
  mime: string;
  text: string;
}

/** Conversations to and from files: one conversation, "Export all", and files too long for one call. */
export class ChatFiles {
  private readonly uploads = new ImportUploads();

  constructor(
    private readonly store: ChatStore,
    /** The engine in words, for the Markdown export's engine line (`EngineKind.exportName`). */
    private readonly engineName: (meta: ConversationMeta) => string,
  ) {}

  /** JSON: the whole tree, every version; Markdown: the messages shown (it says when there are more). */
  export(id: string, format: 'markdown' | 'json'): ExportFile {
    const exp = this.store.exportJson(id);
    if (format === 'json')
      return {
        filename: exportFileName(exp.meta.title, 'json'),
        mime: 'application/json',
        text: JSON.stringify(exp, null, 2),
      };
    return {
      filename: exportFileName(exp.meta.title, 'md'),
      mime: 'text/markdown',
      text: toMarkdown(exp, this.engineName(exp.meta)),
    };
  }

  /** "Export all": every conversation in one JSON file, dated. */
  exportAll(): ExportFile {
    const archive = this.store.exportAll();
    const filename = `hubdesk-conversations-${archive.exportedAt.slice(0, 10)}.json`;
    return { filename, mime: 'application/json', text: JSON.stringify(archive, null, 2) };
  }

  /** One conversation's export text (no file): refused as a duplicate unless `asCopy`. */
  import(text: string, asCopy?: boolean): ConversationMeta {
    return this.store.import(text, asCopy);
  }

  /** A part of a file too long for one call (see ImportUploads). */
  importPart(upload: string | undefined, text: string): { upload: string } {
    return this.uploads.add(upload, text);
  }

  /** A file the user picked, sent whole or in parts (`upload`); see ChatStore.importFile. */
  importFile(input: { text?: string; upload?: string; asCopy?: boolean }): { conversations: ConversationMeta[] } {
    const text = input.text ?? this.uploads.take(input.upload!);
    return { conversations: this.store.importFile(text, input.asCopy) };
  }
}
