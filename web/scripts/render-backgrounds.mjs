// Renders the word-free virtual backgrounds (scripts/backgrounds/*.svg) to the JPEGs the
// room offers (public/backgrounds/*.jpg), 1280×720, in Debian's Chromium:
//   node scripts/render-backgrounds.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = dirname(fileURLToPath(import.meta.url));
const sources = join(here, 'backgrounds');
const target = join(here, '..', 'public', 'backgrounds');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
for (const file of readdirSync(sources).filter((name) => name.endsWith('.svg'))) {
  const svg = readFileSync(join(sources, file), 'utf8');
  await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({ path: join(target, file.replace(/\.svg$/, '.jpg')), type: 'jpeg', quality: 82 });
  console.log('rendered', file);
}
await browser.close();
