/** Puts `text` on the clipboard: true once there, false when the clipboard refused, undefined where there is none. */
export async function copyText(text: string): Promise<boolean | undefined> {
  if (!navigator.clipboard) return undefined;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
