/**
 * The library's entry points as single-file bundles (`npm run build` runs it after tsc). Node spends most of a cold
 * start resolving and compiling ~200 of our modules one by one; one file per entry loads in a fraction of that.
 *
 * The bundles sit in dist/src/bundle/, one folder below dist/src like every source folder, so code that finds its
 * files from `import.meta.url` (the build id hashes dist/src/{core}) resolves the same paths as the unbundled build.
 * `effect` stays external: it is a peer the app shares with us. The parser (meriyah, pinned to one version) is
 * bundled, so that the functions the first run calls are in the library's code cache too (load + first 1 + 1,
 * package entry: 481M -> 467M instructions under callgrind). The CLI and the service keep the per-module build: they
 * pay their start-up once per process, not per host.
 *
 * Whitespace and comments are minified away (a fifth of the file): every start reads and decodes the whole text
 * even when the compile cache has its code, and V8 compiles lazily from it (loading the bundle: 48 -> 39 ms CPU on a
 * loaded machine). Names are kept, so stack traces stay readable, and the source map leads back to src/.
 *
 * The run inspector's browser files (src/ui/, plain ES modules tsc does not compile) are copied to dist/src/ui/,
 * where the compiled src/server/ui.ts looks for them.
 */
import { createHash } from "node:crypto"
import { cpSync, readFileSync, writeFileSync } from "node:fs"
import { build, type BuildOptions } from "esbuild"

const common: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node24",
  external: ["effect", "effect/*"],
  sourcemap: true,
  minifyWhitespace: true,
  logLevel: "warning",
}

await build({ ...common, entryPoints: { client: "src/client/index.ts" }, outdir: "dist/src/bundle", format: "esm" })

/**
 * The library itself is not a module but the body of a function, core.script.js, which core.cjs compiles with a
 * code cache of its own. Node's compile cache (which loads `effect` for us) holds only the code V8 compiled up
 * front, the top level of each module: every function the load and the first run call was compiled again, from the
 * text, at every start. core.cjs asks V8 for the cache when the process exits, with all it compiled by then (load +
 * first run of the package entry: 556M -> 481M instructions under callgrind, the whole process; CPU medians of 12
 * paired starts on a loaded machine 243 -> 228 ms, the first run 54 -> 39 ms).
 *
 * Its imports are `require` calls of what is external: `effect` loads as the same ES modules an app imports
 * (require(esm)), so esbuild's CommonJS interop (`__toESM`, a copy of each namespace with a getter per export) is
 * replaced by the namespace itself.
 */
const SCRIPT = "dist/src/bundle/core.script.js"
await build({
  ...common,
  entryPoints: ["src/index.ts"],
  outfile: SCRIPT,
  format: "cjs",
  define: { "import.meta.url": "__moduleUrl" },
  banner: { js: "(function (exports, require, module, __moduleUrl) {" },
  footer: { js: "})" },
  charset: "ascii",
})
const toESM = /var __toESM=\([^;]*;/
const bundled = readFileSync(SCRIPT, "latin1")
if (bundled.match(new RegExp(toESM, "g"))?.length !== 1) throw new Error("bundle: esbuild's __toESM helper changed")
const scriptText = bundled.replace(toESM, "var __toESM=(mod)=>mod;")
writeFileSync(SCRIPT, scriptText, "latin1")

/**
 * core.cjs: compiles core.script.js with the code cache saved beside Node's compile cache (none when that is off),
 * runs it, and saves a new cache at exit when there was none or V8 refused it (another build, another V8). The
 * text is ASCII (esbuild escapes the rest), read as Latin-1: no UTF-8 decoding of a megabyte at every start. The
 * cache file is named by a hash of the text, so builds sharing a cache folder do not refuse each other's at every
 * start (V8 itself checks that a cache is the text's). The cache holds only what the writing process compiled, so
 * that process first runs `1 + 1` on each engine: a cache written by a start that ran nothing (589 kB instead of
 * 929 kB), or that ran one engine, left the other's first run to be compiled from the text at every later start
 * (load + first run on the vm, cache written by a legacy run: 495.3M -> 479.0M instructions under callgrind).
 */
writeFileSync(
  "dist/src/bundle/core.cjs",
  `"use strict"
const { readFileSync, renameSync, writeFileSync } = require("node:fs")
const { getCompileCacheDir } = require("node:module")
const { join } = require("node:path")
const { pathToFileURL } = require("node:url")
const { Script } = require("node:vm")
const file = join(__dirname, "core.script.js")
const text = readFileSync(file, "latin1")
const dir = getCompileCacheDir()
let cacheFile
let cachedData
if (dir !== undefined) {
  cacheFile = join(dir, "codemode-core-${createHash("sha256").update(scriptText).digest("hex").slice(0, 16)}.bin")
  try {
    cachedData = readFileSync(cacheFile)
  } catch {}
}
const script = new Script(text, { filename: file, cachedData })
if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
  process.once("exit", () => {
    try {
      const { runSync } = require("effect/Effect")
      for (const engine of ["legacy", "vm"]) runSync(module.exports.CodeMode.make({ engine }).execute("1 + 1"))
    } catch {}
    const temporary = \`\${cacheFile}.\${process.pid}\`
    try {
      writeFileSync(temporary, script.createCachedData())
      renameSync(temporary, cacheFile)
    } catch {}
  })
}
script.runInThisContext()(exports, require, module, pathToFileURL(file).href)
`,
)

cpSync("src/ui", "dist/src/ui", { recursive: true })

/**
 * The `codemode` entry turns on Node's compile cache (a quiet optimisation: it never throws, NODE_COMPILE_CACHE
 * moves it and NODE_DISABLE_COMPILE_CACHE turns it off) and only then loads the library: every module of a static
 * import graph is compiled before any of it runs, so core.cjs and the `effect` modules it requires are cached only
 * when they load after the call. It does not await, so CommonJS apps `require()` it too.
 */
const exported = Object.keys(await import("../src/index.ts"))
writeFileSync(
  "dist/src/bundle/index.js",
  `// The package entry (scripts/bundle.ts): Node's compile cache first, then the library (core.cjs).
import { createRequire, enableCompileCache } from "node:module"
enableCompileCache()
const library = createRequire(import.meta.url)("./core.cjs")
export const { ${exported.join(", ")} } = library
`,
)
