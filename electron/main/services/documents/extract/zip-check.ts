import { extractError } from './errors';
import { count, mb, type ExtractLimits } from './limits';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/**
 * Refuses a ZIP (a DOCX) that would unpack past the limits, from its central directory alone (APPNOTE 4.3.12 and
 * 4.3.16): nothing is inflated. A Word document's XML packs about 10:1; a zip bomb's run of one byte packs 1000:1.
 * Sizes an archive lies about are caught later by the worker's heap cap and time limit.
 */
export function checkZip(file: string, bytes: Uint8Array, limits: ExtractLimits): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(view);
  if (end < 0) return; // not a zip: mammoth says it is damaged
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (entries === 0xffff || at === 0xffffffff)
    throw extractError(
      file,
      'too_large',
      'This file is a ZIP64 archive, larger than any Word document: HubDesk does not index it.',
    );
  let total = 0;
  for (let i = 0; i < entries && at + 46 <= view.byteLength; i++) {
    if (view.getUint32(at, true) !== CENTRAL) break;
    const packed = view.getUint32(at + 20, true);
    const unpacked = view.getUint32(at + 24, true);
    total += unpacked;
    if (total > limits.maxUnpackedBytes)
      throw extractError(
        file,
        'too_large',
        `This file expands to more than ${mb(limits.maxUnpackedBytes)} when unpacked: HubDesk does not index it.`,
      );
    if (unpacked > limits.ratioFromBytes && unpacked > packed * limits.maxRatio)
      throw extractError(
        file,
        'too_large',
        `This file expands to more than ${count(limits.maxRatio)} times its size when unpacked (${mb(unpacked)} from ${mb(packed)}): HubDesk does not index it.`,
      );
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
}

/** The end-of-central-directory record: in the last 22 bytes plus a comment of up to 64 KB. */
function findEnd(view: DataView): number {
  const stop = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= stop; i--) if (view.getUint32(i, true) === EOCD) return i;
  return -1;
}
