/**
 * The app scheme's handler, in Node (it is fetch Request → Response, as `protocol.handle` calls it): the built
 * renderer's files with their exact types and the page's CSP, and nothing else — no climbing out of the renderer
 * directory however the path is spelled (links included), no hidden files, no other host, no other method.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { APP_PAGE_URL } from '../../src/main/app-page'
import { APP_SCHEME_REGISTRATION, appProtocolHandler, type AppProtocolHandler } from '../../src/main/app-protocol'
import { UI_CSP } from '../../src/server/desk-routes'

let root: string
let handle: AppProtocolHandler
const get = (url: string): Promise<Response> => handle(new Request(url))

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-app-protocol-'))
  root = join(dir, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Marlowe Desk</title>')
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'export const x = 1')
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}')
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>')
  writeFileSync(join(root, 'assets', 'font.woff2'), 'wOF2')
  writeFileSync(join(root, 'assets', 'data.bin'), 'raw')
  writeFileSync(join(root, '.env'), 'SECRET=1')
  mkdirSync(join(root, '.hidden'))
  writeFileSync(join(root, '.hidden', 'a.js'), 'hidden')
  // Beside the renderer: what a traversal would be after.
  writeFileSync(join(dir, 'secret.json'), '{"secret":true}')
  mkdirSync(join(dir, 'renderer-evil'))
  writeFileSync(join(dir, 'renderer-evil', 'index.html'), 'evil')
  symlinkSync(join(dir, 'secret.json'), join(root, 'assets', 'link.txt'))
  handle = appProtocolHandler(root)
})

describe('the app scheme', () => {
  test('is registered standard and secure, without CORS or a CSP bypass', () => {
    expect(APP_SCHEME_REGISTRATION.scheme).toBe('app')
    expect(APP_SCHEME_REGISTRATION.privileges).toMatchObject({ standard: true, secure: true })
    expect(APP_SCHEME_REGISTRATION.privileges).not.toHaveProperty('corsEnabled')
    expect(APP_SCHEME_REGISTRATION.privileges).not.toHaveProperty('bypassCSP')
    expect(new URL(APP_PAGE_URL).protocol).toBe(`${APP_SCHEME_REGISTRATION.scheme}:`)
  })

  test('serves the built files with their exact types and the page’s CSP', async () => {
    const cases: Array<[string, string, string]> = [
      [APP_PAGE_URL, 'text/html; charset=utf-8', '<!doctype html><title>Marlowe Desk</title>'],
      ['app://desk/index.html#/contracts', 'text/html; charset=utf-8', '<!doctype html><title>Marlowe Desk</title>'],
      ['app://desk/index.html?x=1', 'text/html; charset=utf-8', '<!doctype html><title>Marlowe Desk</title>'],
      ['app://desk/assets/index-abc.js', 'text/javascript; charset=utf-8', 'export const x = 1'],
      ['app://desk/assets/index-abc.css', 'text/css; charset=utf-8', 'body{}'],
      ['app://desk/assets/logo.svg', 'image/svg+xml', '<svg/>'],
      ['app://desk/assets/font.woff2', 'font/woff2', 'wOF2'],
      ['app://desk/assets/%69ndex-abc.js', 'text/javascript; charset=utf-8', 'export const x = 1']
    ]
    for (const [url, type, body] of cases) {
      const response = await get(url)
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type'), url).toBe(type)
      expect(response.headers.get('content-security-policy'), url).toBe(UI_CSP)
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff')
      expect(await response.text(), url).toBe(body)
    }
    expect(UI_CSP).toContain("script-src 'self'")
    expect(UI_CSP).toContain("frame-ancestors 'none'")
  })

  test('never answers a file outside the renderer directory, however the path is spelled', async () => {
    for (const url of [
      'app://desk/../secret.json',
      'app://desk/%2e%2e/secret.json',
      'app://desk/..%2fsecret.json',
      'app://desk/..%2Fsecret.json',
      'app://desk/assets/..%2f..%2fsecret.json',
      'app://desk/..%5csecret.json',
      'app://desk/assets%5c..%5c..%5csecret.json',
      'app://desk/..%2frenderer-evil%2findex.html',
      'app://desk/%2fetc%2fpasswd',
      'app://desk/%2F..%2Fsecret.json',
      'app://desk//etc/passwd',
      'app://desk/C:%5cWindows%5cwin.ini',
      'app://desk/index.html%00.js',
      'app://desk/assets/link.txt',
      'app://desk/%E0%A4%A'
    ]) {
      const response = await get(url)
      expect(response.status, url).toBe(404)
      const text = await response.text()
      expect(text, url).not.toContain('secret')
      expect(text, url).not.toContain('evil')
    }
  })

  test('answers 404 for hidden files, directories, unknown types and missing files', async () => {
    for (const url of [
      'app://desk/.env',
      'app://desk/%2eenv',
      'app://desk/.hidden/a.js',
      'app://desk/',
      'app://desk/assets',
      'app://desk/assets/',
      'app://desk/assets/data.bin',
      'app://desk/missing.js',
      'app://desk/index.html/'
    ]) {
      const response = await get(url)
      expect(response.status, url).toBe(404)
      expect(response.headers.get('content-type'), url).toBe('text/plain; charset=utf-8')
      expect(response.headers.get('content-security-policy'), url).toBe(UI_CSP)
    }
  })

  test('answers only its own host and only GET', async () => {
    for (const url of [
      'app://other/index.html',
      'app://desk.evil/index.html',
      'app://desk:8080/index.html',
      'other://desk/index.html'
    ]) {
      expect((await get(url)).status, url).toBe(404)
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) {
      expect((await handle(new Request(APP_PAGE_URL, { method }))).status, method).toBe(405)
    }
  })
})
