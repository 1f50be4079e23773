/**
 * The library's entry points as single-file bundles (`npm run build` runs it after tsc). Node spends most of a cold
 * start resolving and compiling ~200 of our modules one by one; one file per entry loads in a fraction of that.
 *
 * The bundles sit in dist/src/bundle/, one folder below dist/src like every source folder, so code that finds its
 * files from `import.meta.url` (the build id hashes dist/src/{core}) resolves the same paths as the unbundled build.
 * Dependencies stay external: `effect` is a peer the app shares with us, and the rest install beside us. Dynamic
 * imports (modules loaded on first use) become chunks that still load only when used. The CLI and the service keep
 * the per-module build: they pay their start-up once per process, not per host.
 *
 * Whitespace and comments are minified away (a fifth of the file): every start reads and decodes the whole text
 * even when the compile cache has its code, and V8 compiles lazily from it (loading the bundle: 48 -> 39 ms CPU on a
 * loaded machine). Names are kept, so stack traces stay readable, and the source map leads back to src/.
 *
 * The run inspector's browser files (src/ui/, plain ES modules tsc does not compile) are copied to dist/src/ui/,
 * where the compiled src/server/ui.ts looks for them.
 */
import { cpSync, writeFileSync } from "node:fs"
import { build } from "esbuild"

await build({
  entryPoints: { core: "src/index.ts", client: "src/client/index.ts" },
  outdir: "dist/src/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  packages: "external",
  sourcemap: true,
  minifyWhitespace: true,
  chunkNames: "chunk-[hash]",
  logLevel: "warning",
})

cpSync("src/ui", "dist/src/ui", { recursive: true })

/**
 * The `codemode` entry turns on Node's compile cache (a quiet optimisation: it never throws, NODE_COMPILE_CACHE
 * moves it and NODE_DISABLE_COMPILE_CACHE turns it off) and only then loads the library: every module of a static
 * import graph is compiled before any of it runs, so the bundle and the `effect` modules it imports are cached
 * only when they load after the call. Compiling them is most of a host's first load; from the second start on,
 * V8 reads the code it compiled before.
 */
const exported = Object.keys(await import("../src/index.ts"))
writeFileSync(
  "dist/src/bundle/index.js",
  `// The package entry (scripts/bundle.ts): Node's compile cache first, then the library (core.js).
import { enableCompileCache } from "node:module"
enableCompileCache()
const library = await import("./core.js")
export const { ${exported.join(", ")} } = library
`,
)
