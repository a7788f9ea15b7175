import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import vue from '@vitejs/plugin-vue'
import { defineConfig, type Plugin } from 'vitest/config'

/** The published Runtime client (its runtime-core and rest-client packages), which the tests run through Vite. */
const RUNTIME_CLIENT = /[\\/]node_modules[\\/]@marlowe\.io[\\/]runtime-(?:core|rest-client)[\\/]/

/** Their source maps name sources the packages do not ship; load them without, instead of a warning per file. */
const runtimeClientWithoutSourceMaps: Plugin = {
  name: 'runtime-client-without-source-maps',
  enforce: 'pre',
  async load(id) {
    if (!RUNTIME_CLIENT.test(id) || !id.endsWith('.js')) return null
    const code = await readFile(id, 'utf8')
    return { code: code.replace(/^\/\/# sourceMappingURL=.*$/gm, ''), map: null }
  }
}

export default defineConfig({
  // vue: the renderer's component tests (tests/renderer) import .vue files.
  plugins: [runtimeClientWithoutSourceMaps, vue()],
  test: {
    include: ['tests/**/*.test.ts'],
    // Prints which Marlowe scripts the lifecycle tests run on (stand-ins or MARLOWE_VALIDATORS_DIR's), and builds
    // the engine's worker thread, which the engine cannot start from its TypeScript sources.
    // Where MARLOWE_REQUIRE_VECTORS=1 (CI), fails the run at once without the conformance vectors.
    globalSetup: [
      'tests/support/validators-mode.ts',
      'tests/support/engine-worker.ts',
      'tests/support/vectors-required.ts'
    ],
    setupFiles: ['tests/support/engine-worker-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // runtime-core imports `lucid-cardano` without declaring it, so npm never installs it: run the client
    // through Vite, where that import resolves to an equivalent of the one function it uses.
    alias: { 'lucid-cardano': fileURLToPath(new URL('./tests/support/lucid-cardano.ts', import.meta.url)) },
    server: { deps: { inline: [RUNTIME_CLIENT] } }
  }
})
