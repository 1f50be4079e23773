/**
 * The build id a snapshot carries: a state resumes only on the same build of what reads it (spec "A state resumes
 * only on the same build of this package"), because it refers to built-ins by name, to code objects by id and to
 * heap classes by their field order — all of which a change to the engine may move.
 *
 * The id is a SHA-256 of the sources that decide whether a saved state can be read, by relative path and content
 * in sorted order, and of the parser's version (meriyah's AST decides the code objects): every file of the engine
 * core (`CORE`), and the host files a VM session, which saves and restores a run, reaches by import from
 * host/vm-session.ts (the host's heap classes, the saved run record, how the realm is prepared and named). The
 * import closure is computed rather than listed so that a new file the session comes to depend on is hashed
 * without anyone remembering to add it. Everything else — the service (src/server), the CLI, the run loop, the
 * public API — may change without making stored states unresumable.
 *
 * Computed once per process on first use. Reading the sources with node:fs is the one place the library reads its
 * own files; it lives here, in src/snapshot, so that the engine stays free of I/O (ARCHITECTURE principle 4).
 * Hashing sources rather than trusting the version in package.json means two different checkouts of the same
 * version never accept each other's states when their engines differ.
 */
import { createHash } from "node:crypto"

// The modules below are loaded on first use, when a state is first saved or read: importing them with the library
// would cost the start-up of every host, most of which never save one.
const fs = () => process.getBuiltinModule("node:fs")
const path = () => process.getBuiltinModule("node:path")

/** src/, the folder above this file's. */
const sourceRoot = (): string => process.getBuiltinModule("node:url").fileURLToPath(new URL("..", import.meta.url))

/** Folders of src/ that are hashed whole. */
const CORE = ["bytecode", "compiler", "intrinsics", "language", "runtime", "snapshot", "vm"]

/** Where the host's part of a saved state starts. */
const HOST_ROOTS = ["host/vm-session.ts"]

// Relative specifiers of static imports, re-exports and dynamic imports.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.[^"']+)["']/g

const filesUnder = (dir: string): string[] => {
  const { join } = path()
  return fs()
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

/** The core's files and everything they and the host roots import under `root`, as absolute paths. */
const stateFiles = (root: string): string[] => {
  const { existsSync, readFileSync } = fs()
  const { dirname, join, resolve } = path()
  const seen = new Set<string>()
  const pending = [...CORE.flatMap((d) => filesUnder(join(root, d))), ...HOST_ROOTS.map((f) => join(root, f))]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    if (!file.endsWith(".ts")) continue
    for (const [, spec] of readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), spec!)
      if (target.startsWith(root)) pending.push(target)
    }
  }
  return [...seen].sort()
}

/** meriyah's version, from its package.json (its `exports` hide it from require.resolve). */
const parserVersion = (): string => {
  const { existsSync, readFileSync } = fs()
  const { dirname, join } = path()
  let dir = dirname(process.getBuiltinModule("node:module").createRequire(import.meta.url).resolve("meriyah"))
  for (;;) {
    const manifest = join(dir, "package.json")
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string }
      if (pkg.name === "meriyah") return pkg.version ?? ""
    }
    const up = dirname(dir)
    if (up === dir) return ""
    dir = up
  }
}

/** The build id of the sources under `root` (a src/ folder) read with this parser. Exported for tests. */
export const computeBuildId = (root: string): string => {
  const { readFileSync } = fs()
  const hash = createHash("sha256")
  hash.update(`meriyah@${parserVersion()}\0`)
  for (const file of stateFiles(root)) {
    hash.update(path().relative(root, file).split("\\").join("/"))
    hash.update("\0")
    hash.update(readFileSync(file))
    hash.update("\0")
  }
  return hash.digest("hex").slice(0, 32)
}

let cached: string | undefined

export const buildId = (): string => (cached ??= computeBuildId(sourceRoot()))

