// Lint rules, including the layering rule: imports only go down (see README "Layout").
import tseslint from 'typescript-eslint'
import { modulesPlugin } from './scripts/eslint-modules.mjs'

const modules = modulesPlugin(import.meta.dirname)

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'net',
  'http',
  'https',
  'stream',
  'buffer',
  'worker_threads',
  'url',
  'util'
]

/** Folders each layer must not import from. */
function forbid(...patterns) {
  return {
    'no-restricted-imports': [
      'error',
      {
        // `**/x/**` misses an import of the folder itself (`../server`, its index): forbid `**/x` too.
        patterns: patterns.map((group) => ({
          group: group.endsWith('/**') ? [group, group.slice(0, -3)] : [group],
          message: 'Layering: imports only go down (README, Layout).'
        }))
      }
    ]
  }
}

const APP = ['**/host/**', '**/cli/**', '**/main/**', '**/preload/**', '**/renderer/**']

/** Everything below the app that a pure layer (usable in the renderer too) may not reach. */
const NOT_PURE = [
  ...nodeBuiltins,
  'electron',
  '**/csl/**',
  '**/chain/**',
  '**/store/**',
  '**/engine/**',
  '**/server/**'
]

/** What each layer may not import: every layer above it, and for the pure ones Node and the CSL wrapper too. */
const LAYERS = {
  'src/core': [...NOT_PURE, '**/api/**', ...APP],
  'src/api': [...NOT_PURE, ...APP],
  'src/csl': ['electron', '**/core/**', '**/chain/**', '**/store/**', '**/engine/**', '**/server/**', ...APP],
  'src/chain': ['electron', '**/store/**', '**/engine/**', '**/server/**', ...APP],
  'src/store': ['electron', '**/chain/**', '**/engine/**', '**/server/**', ...APP],
  'src/engine': ['electron', '**/server/**', ...APP],
  'src/server': ['electron', ...APP],
  'src/host': ['electron', ...APP.filter((folder) => folder !== '**/host/**')],
  // The app: the command line and the main process host the engine; the preload and the renderer reach it only
  // through the API contract (src/api), each without the others' code.
  // The command line has a main.ts of its own: the app's src/main is named by the relative way up to it.
  'src/cli': ['electron', '../main/**', '../../main/**', '../../../main/**', '**/preload/**', '**/renderer/**'],
  'src/main': ['**/cli/**', '**/preload/**', '**/renderer/**'],
  'src/preload': [
    ...NOT_PURE.filter((banned) => banned !== 'electron'),
    '**/host/**',
    '**/cli/**',
    '**/main/**',
    '**/renderer/**'
  ],
  'src/renderer': [...NOT_PURE, '**/host/**', '**/cli/**', '**/main/**', '**/preload/**']
}

// `${folder}/**/*.ts` also names the <script> of each .vue file, linted as `<file>.vue/script.ts` (below).
const layerRules = Object.entries(LAYERS).map(([folder, banned]) => ({
  files: [`${folder}/**/*.ts`],
  rules: forbid(...banned)
}))

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off'
    }
  },
  {
    // CommonJS preloads (node --require) are plain scripts.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'JSON',
          property: 'parse',
          message: 'Use the lossless JSON codec (src/core/json): JSON.parse rounds integers above 2^53.'
        }
      ]
    }
  },
  {
    // The store answers asynchronously: a call left unawaited runs after its caller moved on, and a test's check
    // left unawaited cannot fail. Typed linting, so only over what tsconfig.node.json type-checks.
    files: [
      'src/{core,csl,store,engine,chain,server,host,cli,main,preload,api}/**/*.ts',
      'tests/**/*.ts',
      'bench/**/*.ts'
    ],
    ignores: ['tests/renderer/**'],
    languageOptions: { parserOptions: { project: './tsconfig.node.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' }
  },
  {
    // A component's <script> as TypeScript, for the layer and module rules. Its bindings are used by the template,
    // which this does not see: unused names are vue-tsc's to report.
    files: ['src/**/*.vue'],
    plugins: { modules },
    processor: 'modules/vue-script'
  },
  {
    files: ['src/**/*.vue/*.ts'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' }
  },
  {
    // Modules (folders with an index.ts) are imported through their entry from outside (README, Layout).
    files: ['src/**/*.ts'],
    plugins: { modules },
    rules: { 'modules/entry-only': 'error' }
  },
  ...layerRules
)
