import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core's own build, evaluated in the page (the app's CSP refuses inline <script> tags; evaluate is not a tag).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe-core on the whole document and returns its critical and serious violations. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            opts: object,
          ): Promise<{
            violations: { id: string; impact?: string; help: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({
        id: v.id,
        impact: v.impact!,
        help: v.help,
        targets: v.nodes.map((n) => JSON.stringify(n.target)),
      }));
  });
}

export function formatFindings(state: string, findings: AxeFinding[]): string {
  return findings
    .map((f) => `${state}: ${f.id} (${f.impact}) ${f.help}\n    ${f.targets.slice(0, 8).join('\n    ')}`)
    .join('\n');
}

/**
 * Checks the page as it is now in the light and the dark theme (the theme follows the system colour scheme unless
 * Settings fixes one) and returns every critical/serious violation as a readable line; [] when there is none.
 */
/**
 * Lets running transitions end and a frame pass, so a state is judged as painted: a theme switch or a hover's fade-in
 * judged half-way has colours between the two, and so half the contrast.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  });
}

export async function checkBothThemes(page: Page, state: string): Promise<string[]> {
  const out: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, colorScheme);
    await settled(page);
    const found = await axeViolations(page);
    if (found.length) out.push(formatFindings(`${state} [${colorScheme}]`, found));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return out;
}
