/**
 * How much of each Hub JSON answer is read before it is refused: a Hub or a mirror set in Settings can stream
 * without end, and each answer is held whole to parse it. Each cap is far above a real answer of its kind.
 */
const MB = 1024 * 1024;

/** A repo's info with `blobs=true` lists every file (~200 bytes each): 50,000 files are about 10 MB. */
export const HUB_INFO_MAX_BYTES = 16 * MB;
/** A search or derived-models page: at most 100 repos with their expanded fields, well under 1 MB on huggingface.co. */
export const HUB_SEARCH_MAX_BYTES = 8 * MB;
/** A file-tree page: 1,000 entries (~300 KB) on huggingface.co; a mirror that does not page fits ~100,000. */
export const HUB_TREE_MAX_BYTES = 32 * MB;
/** The wait for a whole JSON body once its headers came (headers have their own, shorter, timeout). */
export const HUB_BODY_TIMEOUT_MS = 60_000;
