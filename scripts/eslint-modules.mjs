// Lint support for the layout (README, Layout): a module is a folder under src/ with an index.ts, and code
// outside it imports the module through that entry only; and the <script> of a .vue file, linted as TypeScript,
// so that the layer rules reach the renderer's components too.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

function moduleFolders(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (!statSync(path).isDirectory()) continue
    if (existsSync(join(path, 'index.ts'))) out.push(path)
    moduleFolders(path, out)
  }
  return out
}

/** The rule `modules/entry-only`: no import past the entry of a module the importing file is not part of. */
function entryOnly(root) {
  const modules = moduleFolders(join(root, 'src'))
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Import a module (a folder with an index.ts) through its index from outside it.' },
      schema: [],
      messages: {
        deep: "'{{spec}}' reaches past the entry of {{module}}: import '{{entry}}' (export the name from its index.ts)."
      }
    },
    create(context) {
      const file = context.physicalFilename
      const check = (source) => {
        const spec = source?.type === 'Literal' ? source.value : undefined
        if (typeof spec !== 'string' || !spec.startsWith('.')) return
        const target = resolve(dirname(file), spec).replace(/\.(ts|js)$/, '')
        const passed = modules.filter(
          (folder) =>
            target.startsWith(folder + sep) && target !== join(folder, 'index') && !file.startsWith(folder + sep)
        )
        if (passed.length === 0) return
        const outermost = passed.reduce((a, b) => (a.length <= b.length ? a : b))
        const entry = relative(dirname(file), outermost).split(sep).join('/')
        context.report({
          node: source,
          messageId: 'deep',
          data: {
            spec,
            module: relative(root, outermost).split(sep).join('/'),
            entry: entry.startsWith('.') ? entry : `./${entry}`
          }
        })
      }
      return {
        ImportDeclaration: (node) => check(node.source),
        ExportNamedDeclaration: (node) => check(node.source),
        ExportAllDeclaration: (node) => check(node.source),
        ImportExpression: (node) => check(node.source),
        TSImportType: (node) => check(node.argument.type === 'TSLiteralType' ? node.argument.literal : node.argument)
      }
    }
  }
}

/**
 * A .vue file's <script> block as a TypeScript file of its own (`<file>.vue/script.ts`), everything else in the
 * file blanked to its line breaks, so that every message keeps its line and column.
 */
const vueScript = {
  meta: { name: 'vue-script' },
  preprocess(text) {
    const match = /(<script\b[^>]*>)([\s\S]*?)<\/script>/.exec(text)
    if (!match) return []
    const start = match.index + match[1].length
    const blank = (part) => part.replace(/[^\n]/g, ' ')
    return [{ text: blank(text.slice(0, start)) + match[2], filename: 'script.ts' }]
  },
  postprocess: (messages) => messages.flat(),
  supportsAutofix: false
}

export function modulesPlugin(root) {
  return { rules: { 'entry-only': entryOnly(root) }, processors: { 'vue-script': vueScript } }
}
