import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The engine starts its worker thread from `engine-worker.cjs` beside its code (src/engine/worker/index.ts),
        // so the code the two entries share stays in that folder too.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'engine-worker': resolve(__dirname, 'src/engine/worker/entry.ts')
        },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'engine-worker' ? '[name].cjs' : '[name].js'),
          chunkFileNames: '[name]-[hash].js'
        }
      }
    }
  },
  preload: {
    // A sandboxed preload cannot load ES modules: it must be one CommonJS file.
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].js' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } },
    plugins: [vue()]
  }
})
