import { inflateRawSync } from 'node:zlib';
import { extractError } from './errors';
import { count, mb, type ExtractLimits } from './limits';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DEFLATE = 8;

/**
 * Refuses a ZIP (a DOCX) that would unpack past the limits: first by the sizes its central directory declares
 * (APPNOTE 4.3.12 and 4.3.16), before inflating anything; then each entry is inflated natively, off the JS heap, with
 * its declared size as the most it may give, so an archive that lies about its sizes is refused before mammoth reads
 * it into strings. A Word document's XML packs about 10:1; a zip bomb's run of one byte packs 1000:1.
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
  const declared: { method: number; packed: number; unpacked: number; local: number }[] = [];
  for (let i = 0; i < entries && at + 46 <= view.byteLength; i++) {
    if (view.getUint32(at, true) !== CENTRAL) break;
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true);
    const unpacked = view.getUint32(at + 24, true);
    declared.push({ method, packed, unpacked, local: view.getUint32(at + 42, true) });
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
  for (const e of declared) {
    if (e.method !== DEFLATE || e.local + 30 > view.byteLength || view.getUint32(e.local, true) !== LOCAL) continue;
    const start = e.local + 30 + view.getUint16(e.local + 26, true) + view.getUint16(e.local + 28, true);
    try {
      inflateRawSync(bytes.subarray(start, start + e.packed), { maxOutputLength: Math.max(1, e.unpacked) });
    } catch (err) {
      // Damaged data is left to mammoth to describe; only more data than declared is refused here.
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw extractError(
          file,
          'too_large',
          'This file unpacks to more than its own headers say (a damaged file, or a zip bomb): HubDesk does not index it.',
        );
    }
  }
}

/** The end-of-central-directory record: in the last 22 bytes plus a comment of up to 64 KB. */
function findEnd(view: DataView): number {
  const stop = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= stop; i--) if (view.getUint32(i, true) === EOCD) return i;
  return -1;
}
