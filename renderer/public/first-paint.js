// Runs before the first paint (a classic script in <head>; the CSP allows only files). index.html carries the
// catalogue landing prerendered at build time (scripts/first-screen.ts), and main marks the page when that landing
// is this user's first screen (Hub access off). It is not when the address names another page: then the mark goes.
// The theme follows the system until the app has read the user's own choice.
(function () {
  var html = document.documentElement;
  // As renderer/src/store/route.ts parses it: a first segment that is no page means the catalogue's landing.
  var parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  var pages = ['catalogue', 'models', 'chat', 'tools', 'settings'];
  var landing = parts.length === 0 || pages.indexOf(parts[0]) < 0 || (parts[0] === 'catalogue' && parts.length === 1);
  if (!landing) html.removeAttribute('data-first-screen');
  html.setAttribute('data-theme', matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
})();
