/**
 * HubDesk's mark, drawn inline: an `<img>` of the same SVG makes the browser build a separate SVG document to decode
 * it, on the page's thread, before the first screen's paint. The same drawing as public/favicon.svg (the window's
 * icon), which a unit test keeps in step.
 */
export function Logo({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="#1f2430" />
      <path d="M16 18h8v11h16V18h8v28h-8V35H24v11h-8z" fill="#ffb000" />
      <circle cx="48" cy="16" r="5" fill="#ff6b3d" />
    </svg>
  );
}
