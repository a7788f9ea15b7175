/**
 * The installer configuration (electron-builder.cjs, build/, .github/workflows/installers.yml) is sane. Installers
 * cannot be built here (no Electron download), so this checks what the config promises: the fuses, what goes into
 * the archive, native modules unpacked, every target, icons of the right size, and a pinned builder in the workflow.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string): string => readFileSync(join(root, path), 'utf8')

type Target = string | { target: string; arch?: string[] }
interface PlatformConfig {
  target?: Target | Target[]
  icon?: string
  [key: string]: unknown
}
interface BuilderConfig {
  appId?: string
  productName?: string
  extraMetadata?: { homepage?: string; author?: { name?: string; email?: string }; desktopName?: string }
  directories?: { output?: string; buildResources?: string }
  files?: string[]
  asar?: boolean
  asarUnpack?: string[]
  npmRebuild?: boolean
  electronFuses?: Record<string, boolean>
  linux?: PlatformConfig
  win?: PlatformConfig
  mac?: PlatformConfig
  publish?: unknown
}

const config = createRequire(import.meta.url)(join(root, 'electron-builder.cjs')) as BuilderConfig
const files = config.files ?? []
const includes = files.filter((p) => !p.startsWith('!'))
const excludes = files.filter((p) => p.startsWith('!')).map((p) => p.slice(1))

/** Expands one level of `{a,b}` alternatives, as electron-builder's minimatch does. */
function expandBraces(pattern: string): string[] {
  const match = /\{([^{}]*)\}/.exec(pattern)
  if (match === null) return [pattern]
  const [whole, inner = ''] = match
  return inner
    .split(',')
    .flatMap((alt) => expandBraces(pattern.slice(0, match.index) + alt + pattern.slice(match.index + whole.length)))
}

function targetNames(platform: PlatformConfig | undefined): string[] {
  const target = platform?.target
  const list = target === undefined ? [] : Array.isArray(target) ? target : [target]
  return list.map((t) => (typeof t === 'string' ? t : t.target))
}

/** Width and height from a PNG's signature and IHDR chunk. */
function pngSize(path: string): { width: number; height: number; colorType: number } {
  const bytes = readFileSync(join(root, path))
  expect([...bytes.subarray(0, 8)], `${path} has the PNG signature`).toEqual([137, 80, 78, 71, 13, 10, 26, 10])
  expect(bytes.toString('latin1', 12, 16), `${path} starts with IHDR`).toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colorType: bytes[25] ?? -1 }
}

describe('electron-builder config', () => {
  test('identity, directories, asar; package.json carries no build key and no electron-builder', () => {
    expect(config.appId).toBe('io.marlowedesk.app')
    expect(config.productName).toBe('Marlowe Desk')
    expect(config.directories).toEqual({ output: 'dist', buildResources: 'build' })
    expect(config.asar).toBe(true)
    expect(config.publish).toBeNull()

    const pkg = JSON.parse(read('package.json')) as Record<string, Record<string, string> | undefined>
    expect(pkg['build']).toBeUndefined()
    expect(pkg['dependencies']?.['electron-builder']).toBeUndefined()
    expect(pkg['devDependencies']?.['electron-builder']).toBeUndefined()
  })

  test('fuses: no run-as-node, NODE_OPTIONS or inspect flags; cookie encryption, ASAR integrity, ASAR only', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true
    })
  })

  test('fuses: file:// pages get no extra privileges (the renderer is served on the app scheme)', () => {
    expect(config.electronFuses?.['grantFileProtocolExtraPrivileges']).toBe(false)
  })

  test('the README says where ASAR integrity is checked, and why not on Linux', () => {
    const readme = read('README.md')
    const installers = readme.slice(
      readme.indexOf('## Installers'),
      readme.indexOf('\n## ', readme.indexOf('## Installers') + 1)
    )
    const prose = installers.replace(/\s+/g, ' ')
    expect(prose).toContain('ASAR integrity checked at start on macOS and Windows')
    // Electron has the check on those two only (the fuse is ignored on Linux): the README must not promise more.
    expect(prose).toContain(
      'Linux builds have no ASAR integrity check: Electron implements it only on macOS and Windows'
    )
  })

  test('the archive holds the electron-vite output, not sources, tests or source maps', () => {
    for (const dir of ['out/main/**', 'out/preload/**', 'out/renderer/**']) expect(includes).toContain(dir)
    for (const pattern of includes) expect(pattern).toMatch(/^(out\/(main|preload|renderer)|resources)\//)

    // package.json "main" is inside what is packed.
    const main = (JSON.parse(read('package.json')) as { main: string }).main.replace(/^\.\//, '')
    expect(main.startsWith('out/main/')).toBe(true)

    const excluded = excludes.flatMap(expandBraces)
    for (const pattern of ['src/**', 'tests/**', 'bench/**', '**/*.map', 'out/cli/**', 'out/scratch/**']) {
      expect(excluded).toContain(pattern)
    }
  })

  test('better-sqlite3 is unpacked from the archive and native modules are rebuilt for Electron', () => {
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**')
    expect(config.asarUnpack).toContain('**/*.node')
    expect(config.npmRebuild).not.toBe(false)
    // Its compiled addon must not be excluded by the clean-up patterns.
    const excluded = excludes.flatMap(expandBraces)
    expect(excluded.some((p) => p.includes('better-sqlite3/build/Release/better_sqlite3.node'))).toBe(false)
    expect(excluded.some((p) => /better-sqlite3\/(build|build\/Release|lib)\/\*\*$/.test(p))).toBe(false)
  })

  test('targets: Linux AppImage and deb, Windows NSIS, macOS dmg', () => {
    expect(targetNames(config.linux)).toEqual(expect.arrayContaining(['AppImage', 'deb']))
    expect(targetNames(config.win)).toContain('nsis')
    expect(targetNames(config.mac)).toContain('dmg')
  })

  test('the deb has a maintainer and a homepage', () => {
    expect(config.linux?.['maintainer']).toMatch(/^[^<>]+ <[^<>\s]+@[^<>\s]+>$/)
    expect(config.extraMetadata?.homepage).toMatch(/^https:\/\/\S+$/)
    expect(config.extraMetadata?.author?.email).toMatch(/@/)
  })

  test('icons come from build/: an SVG source and RGBA PNGs of 512 (Windows, Linux) and 1024 (macOS) pixels', () => {
    expect(read('build/icon.svg')).toMatch(/<svg[^>]*viewBox="0 0 1024 1024"/)
    const expected: [PlatformConfig | undefined, number][] = [
      [config.linux, 512],
      [config.win, 512],
      [config.mac, 1024]
    ]
    for (const [platform, size] of expected) {
      const icon = platform?.icon ?? ''
      expect(icon.startsWith('build/') && existsSync(join(root, icon)), `${icon} exists in build/`).toBe(true)
      expect(pngSize(icon)).toEqual({ width: size, height: size, colorType: 6 })
    }
  })

  test('macOS entitlements exist: JIT only, library validation kept, no unsigned executable memory', () => {
    const file = config.mac?.['entitlements']
    expect(file).toBe('build/entitlements.mac.plist')
    const plist = read(String(file))
    expect(plist).toContain('com.apple.security.cs.allow-jit')
    expect(plist).not.toContain('disable-library-validation')
    // Electron 12 and later JIT (WebAssembly included) under allow-jit alone; this one would allow any writable
    // and executable memory.
    expect(plist).not.toContain('allow-unsigned-executable-memory')
  })
})

describe('installers workflow', () => {
  const workflow = read('.github/workflows/installers.yml')

  test('an OS matrix that installs, builds and packages with a flag per platform', () => {
    for (const os of ['ubuntu-latest', 'windows-latest', 'macos-latest']) expect(workflow).toContain(`os: ${os}`)
    for (const flag of ['--linux', '--win', '--mac']) expect(workflow).toContain(`platform: ${flag}`)
    expect(workflow).toMatch(/node-version: 20\b/)
    expect(workflow).toContain('npm ci')
    expect(workflow).toContain('npm run build')
    expect(workflow).toContain('--publish never')
    expect(workflow).toContain('actions/upload-artifact')
    expect(workflow).toContain('dist/')
    expect(workflow).toContain('.ci/run')
  })

  test('electron-builder is pinned to one exact version', () => {
    const runs = [...workflow.matchAll(/npx --yes electron-builder@(\S+)/g)].map((m) => m[1])
    expect(runs.length).toBeGreaterThan(0)
    for (const version of runs) expect(version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(new Set(runs).size).toBe(1)
    expect(Number(runs[0]?.split('.')[0])).toBeGreaterThanOrEqual(26)
  })
})
