import { pages } from './pages';

/**
 * The script index.html runs before its first paint, inline (allowed by its hash in the CSP: see
 * electron/main/services/static-files.ts), so the paint waits for no request. index.html carries the catalogue
 * landing prerendered at build time (scripts/first-screen.ts), and main marks the page when that landing is this
 * user's first screen (Hub access off); the mark goes when the address names another page, parsed as
 * renderer/src/store/route.ts does (a first segment that is no page means the catalogue's landing). The theme follows
 * the system until the app has read the user's own choice.
 */
export const FIRST_PAINT_SCRIPT =
  '(function(){var h=document.documentElement;' +
  "var p=location.hash.replace(/^#\\/?/,'').split('/').filter(Boolean);" +
  `var pages=${JSON.stringify(pages)};` +
  "if(!(p.length===0||pages.indexOf(p[0])<0||(p[0]==='catalogue'&&p.length===1)))h.removeAttribute('data-first-screen');" +
  "h.setAttribute('data-theme',matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light');})();";
