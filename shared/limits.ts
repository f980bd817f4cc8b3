/**
 * Size and shape limits every transport applies before the contract sees an input. The contract's own limits stay
 * within these (a test checks): no input the contract accepts is refused by the transport first.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Deepest nesting of objects and arrays an input may have (the contract's deepest shape is far shallower). */
export const MAX_INPUT_DEPTH = 64;

/** Whether a parsed value nests deeper than `max`; iterative, so a hostile depth cannot overflow the stack. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Largest conversation file `chat.import` takes, in characters: half the body limit, so the JSON-encoded request
 * (escapes, multi-byte text) still fits in one body.
 */
export const MAX_IMPORT_CHARS = MAX_BODY_BYTES / 2;

/**
 * Longest part of a file `chat.importPart` takes, in characters: JSON-encoded, a character is at most 6 bytes (a
 * `\u` escape), so any part fits in one body whatever the file holds.
 */
export const IMPORT_PART_CHARS = Math.floor(MAX_BODY_BYTES / 8);

/**
 * Longest file `chat.importFile` takes in parts: V8's longest string (2^29 − 24 characters), which also bounds
 * what an export can write, so every file HubDesk exports can be imported back.
 */
export const MAX_IMPORT_FILE_CHARS = 2 ** 29 - 24;
