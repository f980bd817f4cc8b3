import type { HubDeskClient } from './client';
import type { Output } from './contract';
import { IMPORT_PART_CHARS } from './limits';

/**
 * Sends a picked file to `chat.importFile`: in one call, or in parts (`chat.importPart`) when it is longer than one
 * request can carry, so every file HubDesk exports can be imported back.
 */
export async function importFileText(
  client: Pick<HubDeskClient, 'call'>,
  text: string,
  asCopy = false,
): Promise<Output<'chat.importFile'>> {
  const copy = asCopy ? { asCopy } : {};
  if (text.length <= IMPORT_PART_CHARS) return client.call('chat.importFile', { text, ...copy });
  let upload: string | undefined;
  for (let at = 0; at < text.length; at += IMPORT_PART_CHARS) {
    const part = text.slice(at, at + IMPORT_PART_CHARS);
    ({ upload } = await client.call('chat.importPart', upload ? { upload, text: part } : { text: part }));
  }
  return client.call('chat.importFile', { upload, ...copy });
}
