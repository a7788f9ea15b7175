// Lint rules, including the layering rule: imports only go down (see README "Layout").
import tseslint from 'typescript-eslint'

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
        patterns: patterns.map((group) => ({
          group: [group],
          message: 'Layering: imports only go down (README, Layout).'
        }))
      }
    ]
  }
}

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
    files: ['src/core/**/*.ts'],
    rules: forbid(
      ...nodeBuiltins,
      'electron',
      '**/engine/**',
      '**/chain/**',
      '**/store/**',
      '**/server/**',
      '**/cli/**',
      '**/main/**',
      '**/preload/**',
      '**/renderer/**',
      '**/api/**'
    )
  },
  {
    files: ['src/chain/**/*.ts'],
    rules: forbid(
      'electron',
      '**/engine/**',
      '**/store/**',
      '**/server/**',
      '**/cli/**',
      '**/main/**',
      '**/preload/**',
      '**/renderer/**'
    )
  },
  {
    files: ['src/csl/**/*.ts'],
    rules: forbid(
      'electron',
      '**/core/**',
      '**/engine/**',
      '**/chain/**',
      '**/store/**',
      '**/server/**',
      '**/cli/**',
      '**/main/**'
    )
  },
  {
    files: ['src/store/**/*.ts'],
    rules: forbid(
      'electron',
      '**/engine/**',
      '**/chain/**',
      '**/server/**',
      '**/cli/**',
      '**/main/**',
      '**/preload/**',
      '**/renderer/**'
    )
  }
)
