// The part of jsdom's API scripts/first-screen.ts uses (jsdom ships no types; @types/jsdom follows another major).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis & { close(): void };
  }
}
