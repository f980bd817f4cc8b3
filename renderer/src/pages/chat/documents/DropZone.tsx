import { useEffect, useState } from 'react';
import { useDocuments } from '../../../store/documents';

const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');

/**
 * Files dropped anywhere on the window while a conversation is open are attached to it; an overlay says so while
 * they are dragged over. (Images for a model that sees still go through the composer's Image… button.)
 */
export function DropZone({ conversation }: { conversation: string }) {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth += 1;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer!.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length) useDocuments.getState().upload({ conversation }, files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [conversation]);
  if (!over) return null;
  return (
    <div className="doc-drop" data-testid="doc-drop" aria-hidden="true">
      <div className="doc-drop-card">Drop files to attach them to this conversation</div>
    </div>
  );
}
