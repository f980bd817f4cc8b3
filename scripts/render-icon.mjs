// Renders resources/icon.svg to resources/icon.png (512×512) with Debian Chromium: run after editing the SVG.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../resources/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless'],
});
const page = await browser.newPage({ viewport: { width: 512, height: 512 } });
await page.setContent(
  `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', '<svg width="512" height="512" ')}</body></html>`,
);
await page.screenshot({ path: new URL('../resources/icon.png', import.meta.url).pathname, omitBackground: true });
await browser.close();
