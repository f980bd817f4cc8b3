/** The file to fetch for a quantization: the only one, or the first part of a split GGUF (main fetches the rest). */
export function firstGgufFile(files: readonly string[]): string | undefined {
  const ggufs = files.filter((f) => /\.gguf$/i.test(f));
  return ggufs.find((f) => /-0*1-of-\d+\.gguf$/i.test(f)) ?? [...ggufs].sort()[0];
}
