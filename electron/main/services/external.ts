import { externalHosts } from '@shared/contract/app';

/** Only https links to known hosts (or their subdomains) may leave the app for the system browser. */
export function isAllowedExternal(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return externalHosts.some((h) => host === h || host.endsWith(`.${h}`));
}
