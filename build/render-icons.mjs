// Renders build/icon.svg into the PNG icons electron-builder reads (build/icon.png 512×512 for Windows and Linux,
// build/icon-1024.png 1024×1024 for macOS), with Chromium driven by playwright-core (a devDependency).
// Run from the repository root: `node build/render-icons.mjs` (CHROMIUM_PATH overrides /usr/bin/chromium).
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const here = dirname(fileURLToPath(import.meta.url))
const outputs = [
  { file: 'icon.png', size: 512 },
  { file: 'icon-1024.png', size: 1024 }
]

const svg = await readFile(join(here, 'icon.svg'))
const src = `data:image/svg+xml;base64,${svg.toString('base64')}`
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking']
})
try {
  for (const { file, size } of outputs) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 })
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">` +
        `<img id="icon" src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`
    )
    await page.waitForFunction(() => {
      const img = document.getElementById('icon')
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0
    })
    await page.screenshot({ path: join(here, file), omitBackground: true })
    await page.close()
    console.log(`wrote build/${file} (${size}×${size})`)
  }
} finally {
  await browser.close()
}
