const paths = {
  catalogue: 'M4 5h16M4 12h16M4 19h10',
  models: 'M4 7l8-4 8 4-8 4-8-4zm0 5l8 4 8-4M4 17l8 4 8-4',
  chat: 'M4 5h16v10H9l-5 4V5z',
  compare: 'M4 4h6v16H4V4zm10 0h6v16h-6V4z',
  tools: 'M14.5 4.5a4 4 0 00-5 5L4 15l2 2 2 2 5.5-5.5a4 4 0 005-5l-2.5 2.5-2-.5-.5-2 2.5-2.5z',
  settings:
    'M12 8a4 4 0 100 8 4 4 0 000-8zm0-5v3m0 12v3M3 12h3m12 0h3M5.6 5.6l2.1 2.1m8.6 8.6l2.1 2.1M5.6 18.4l2.1-2.1m8.6-8.6l2.1-2.1',
  search: 'M11 4a7 7 0 100 14 7 7 0 000-14zm9 16l-4-4',
  alert: 'M12 3l9 16H3l9-16zm0 6v4m0 3v.5',
  empty: 'M3 7h18v12H3V7zm0 0l3-4h12l3 4M9 12h6',
  external: 'M14 4h6v6m0-6L10 14M18 14v6H4V6h6',
  check: 'M5 12l5 5L20 7',
  close: 'M6 6l12 12M18 6L6 18',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={paths[name]} />
    </svg>
  );
}
