export declare const root: string;
/** A Vite module loader over the repository: `load('/bench/run.ts')`, then `close()` when done. */
export declare function ssrLoader(
  root?: string,
): Promise<{ load(path: string): Promise<Record<string, unknown>>; close(): Promise<void> }>;
