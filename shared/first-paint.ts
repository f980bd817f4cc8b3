import { pages } from './pages';
import { WEB } from './transport';

/** The id of the `<template>` in index.html's head that holds the app's script and preload tags (see below). */
export const BOOT_TEMPLATE_ID = 'boot';

/**
 * The id of the empty element after the landing: index.html's head holds `<link rel="expect" blocking="render">` on
 * it, so no frame is drawn before the whole landing is parsed (HTML arriving in pieces was painted piece by piece).
 */
export const LANDING_END_ID = 'landing-end';

/**
 * The script index.html runs before its first paint, inline (allowed by its hash in the CSP: see
 * electron/main/services/static-files.ts), so the paint waits for no request. index.html carries the catalogue
 * landing prerendered at build time (scripts/first-screen.ts), and main marks the page when that landing is this
 * user's first screen (Hub access off); the mark goes when the address names another page, parsed as
 * renderer/src/store/route.ts does (a first segment that is no page means the catalogue's landing). The theme follows
 * the system until the app has read the user's own choice.
 *
 * First of all, it reads the web mode's secret, which arrives once in the address's fragment: before anything (a
 * link, a key) can change the fragment, the app's script being loaded only later. The secret is kept for this tab
 * (sessionStorage, where renderer/src/api.ts reads it) and removed from the address bar just before the app is put
 * in: both cost the first paint ~8 ms (the storage's first use, a same-document navigation).
 *
 * Then it loads the app: the build keeps the app's script and preload tags in an inert `<template>`, so nothing of
 * the app is fetched, compiled or run before the landing's first paint (on two cores, that work delayed it). Where
 * the landing is the first screen, the tags go in after that paint: a task queued from the first frame after the
 * whole document is parsed runs once it is painted (a frame before that, while the parser waited for more HTML, put
 * the app in ahead of the landing's paint). 100 ms at most: where frames do not come (a window not shown yet) or the
 * HTML is slow to arrive, the app loads meanwhile. Elsewhere at once.
 */
export const FIRST_PAINT_SCRIPT =
  '(function(){var h=document.documentElement;' +
  `var s=new URLSearchParams(location.hash.slice(1)).get(${JSON.stringify(WEB.tokenFragment)});` +
  "var p=location.hash.replace(/^#\\/?/,'').split('/').filter(Boolean);" +
  `var pages=${JSON.stringify(pages)};` +
  "if(!(p.length===0||pages.indexOf(p[0])<0||(p[0]==='catalogue'&&p.length===1)))h.removeAttribute('data-first-screen');" +
  "h.setAttribute('data-theme',matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light');" +
  `var t=document.getElementById(${JSON.stringify(BOOT_TEMPLATE_ID)}),done=false;` +
  'var boot=function(){if(done)return;done=true;' +
  `if(s){sessionStorage.setItem(${JSON.stringify(WEB.secretStorageKey)},s);` +
  `if(new URLSearchParams(location.hash.slice(1)).get(${JSON.stringify(WEB.tokenFragment)})===s)history.replaceState(null,'',location.pathname+location.search);}` +
  'if(t)document.head.appendChild(document.importNode(t.content,true));};' +
  "if(h.hasAttribute('data-first-screen')){document.addEventListener('DOMContentLoaded',function(){requestAnimationFrame(function(){setTimeout(boot,0);});});setTimeout(boot,100);}" +
  'else boot();})();';
