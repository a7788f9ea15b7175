// electron-builder configuration for the desktop installers (Linux AppImage + deb, Windows NSIS, macOS dmg).
// electron-builder finds this file by name. It is not a dependency of the project: the installers workflow
// (.github/workflows/installers.yml) runs a pinned version through npx, after `npm run build`. See build/README.md.

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'io.marlowedesk.app',
  productName: 'Marlowe Desk',
  copyright: 'Copyright © Marlowe Desk contributors',
  // package.json stays as it is; these fields only go into the packaged copy and the installers' metadata.
  // The homepage and maintainer address are placeholders until the project has a public home: set them
  // before publishing installers.
  extraMetadata: {
    homepage: 'https://marlowedesk.io',
    // Electron takes the Linux app_id / WM_CLASS from this, so windows match the .desktop entry (syncDesktopName).
    desktopName: 'marlowe-desk.desktop',
    author: { name: 'Marlowe Desk contributors', email: 'maintainers@marlowedesk.io' }
  },
  directories: { output: 'dist', buildResources: 'build' },

  // The app is what electron-vite builds (package.json "main" is out/main/index.js) plus run-time resources.
  // electron-builder adds package.json and the production dependencies (node_modules) itself.
  files: [
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    'resources/**',
    '!resources/README.md',
    '!**/*.map',
    '!{src,tests,bench,build,scripts,docs,coverage,dist,.ci,.github}/**',
    '!out/{cli,bench,scratch}/**',
    '!**/*.{ts,mts,cts,vue,tsbuildinfo}',
    '!**/node_modules/better-sqlite3/{deps,src,docs,benchmark}/**',
    '!**/node_modules/better-sqlite3/build/{deps,Release/obj,Release/obj.target,Release/.deps}/**',
    '!**/node_modules/better-sqlite3/build/Release/test_extension.node'
  ],
  asar: true,
  // Native addons cannot be loaded from inside the archive: keep them next to it (app.asar.unpacked).
  asarUnpack: ['**/node_modules/better-sqlite3/**', '**/*.node', 'resources/**'],
  // Rebuild native dependencies (better-sqlite3, cbor-extract) for the packaged Electron's ABI before packing.
  npmRebuild: true,
  buildDependenciesFromSource: false,

  // Flipped in the Electron binary at package time, before signing (@electron/fuses).
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    // Checked by Electron on macOS and Windows only: Linux has no embedded hash to check (README, Installers).
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    // The renderer is served on app:// (src/main/app-protocol.ts): file:// pages need no extra privileges.
    grantFileProtocolExtraPrivileges: false,
    // Flipping fuses breaks the ad-hoc signature of an unsigned arm64 macOS build; re-sign it ad hoc.
    resetAdHocDarwinSignature: true
  },

  linux: {
    target: ['AppImage', 'deb'],
    icon: 'build/icon.png',
    syncDesktopName: true,
    category: 'Office;Finance',
    maintainer: 'Marlowe Desk contributors <maintainers@marlowedesk.io>',
    vendor: 'Marlowe Desk contributors',
    synopsis: 'Build, review, sign and submit Marlowe contracts on Cardano',
    description: 'Desktop companion that builds, reviews, signs and submits Cardano transactions for Marlowe contracts.'
  },
  appImage: { artifactName: '${name}-${version}-${arch}.${ext}' },
  deb: { packageCategory: 'utils', priority: 'optional' },

  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'build/icon.png'
  },
  nsis: {
    artifactName: '${name}-${version}-setup.${ext}',
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    createDesktopShortcut: true,
    shortcutName: 'Marlowe Desk',
    uninstallDisplayName: 'Marlowe Desk'
  },

  mac: {
    target: ['dmg'],
    icon: 'build/icon-1024.png',
    category: 'public.app-category.finance',
    hardenedRuntime: true,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist'
  },
  dmg: { artifactName: '${name}-${version}-${arch}.${ext}' },

  // Installers are uploaded as workflow artifacts; nothing is published from here.
  publish: null
}
