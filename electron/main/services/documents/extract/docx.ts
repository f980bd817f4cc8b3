import mammoth from 'mammoth';
import type { ExtractedDoc } from '../types';
import { extractError } from './errors';
import { htmlDoc } from './html';
import type { ExtractLimits } from './limits';
import { checkZip } from './zip-check';

/** The OLE compound-file signature: what an encrypted DOCX (or an old binary .doc) starts with instead of a zip. */
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/** A Word document through mammoth's HTML (headings from the Heading 1–6 styles, tables kept), read as HTML. */
export async function docxDoc(file: string, bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDoc> {
  if (OLE.every((b, i) => bytes[i] === b))
    throw extractError(
      file,
      'password',
      'This Word file is password-protected or in the old .doc format: save it as an unprotected .docx to add it.',
    );
  checkZip(file, bytes, limits);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }))
      .value;
  } catch (e) {
    throw extractError(
      file,
      'damaged',
      `This Word file is damaged (${(e as Error).message}), so HubDesk cannot read it.`,
    );
  }
  return htmlDoc(html, 'docx');
}
