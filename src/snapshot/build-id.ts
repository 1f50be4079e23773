/**
 * The build id a snapshot carries: a state resumes only on the same build of this package (spec "A state resumes
 * only on the same build of this package"), because it refers to built-ins by name, to code objects by id and to
 * heap classes by their field order — all of which any change to the source may move.
 *
 * The id is a SHA-256 of the package's own source files (every file under src/, by relative path and content, in
 * sorted order), computed once per process on first use. Reading the sources with node:fs is the one place the
 * library reads its own files; it lives here, in src/snapshot, so that the engine stays free of I/O (ARCHITECTURE
 * principle 4). Hashing the sources rather than trusting the version in package.json means two different
 * checkouts of the same version — a patched deployment, a developer's working tree — never accept each other's
 * states. Keep in mind that any source change, the service's included, gives a new id: a deployment must resume
 * its stored runs with the build that saved them, or let them fail with a SnapshotError.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

/** src/, the folder above this file's. */
const SOURCE_ROOT = fileURLToPath(new URL("..", import.meta.url))

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .sort()

let cached: string | undefined

export const buildId = (): string => {
  if (cached !== undefined) return cached
  const hash = createHash("sha256")
  for (const file of sourceFiles(SOURCE_ROOT)) {
    hash.update(relative(SOURCE_ROOT, file).split("\\").join("/"))
    hash.update("\0")
    hash.update(readFileSync(file))
    hash.update("\0")
  }
  cached = hash.digest("hex").slice(0, 32)
  return cached
}
