/**
 * The known-failures ratchet: `known-failures.txt` lists corpus ids (one per line, `#` starts a comment) whose
 * engine outcome is expected to differ from V8. A listed program that now matches fails the run until it is
 * removed, so the list only ever shrinks by hand and grows on purpose (UPDATE_KNOWN_FAILURES=1 rewrites it).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export const knownFailuresPath = join(import.meta.dirname, "known-failures.txt")

/** The list of one engine: known-failures.txt for the VM, known-failures.<engine>.txt for the others. */
export const knownFailuresPathFor = (engine: string): string =>
  engine === "vm" ? knownFailuresPath : join(import.meta.dirname, `known-failures.${engine}.txt`)

const DEFAULT_HEADER = [
  "# Differential corpus programs whose engine result is known to differ from V8 (node:vm).",
  "# One id (<topic>/<name>) per line; '#' starts a comment. A listed program that now matches fails the test:",
  "# remove it. Regenerate with: UPDATE_KNOWN_FAILURES=1 npx vitest run test/differential",
]

const stripComment = (line: string): string => {
  const hash = line.indexOf("#")
  return (hash === -1 ? line : line.slice(0, hash)).trim()
}

export const parseKnownFailures = (text: string): Set<string> =>
  new Set(text.split("\n").map(stripComment).filter((id) => id !== ""))

export const readKnownFailures = (path: string = knownFailuresPath): Set<string> =>
  existsSync(path) ? parseKnownFailures(readFileSync(path, "utf8")) : new Set()

/** Rewrites the file with `ids`, sorted, keeping its leading comment block as the header. */
export const writeKnownFailures = (ids: Iterable<string>, path: string = knownFailuresPath): void => {
  const existing = existsSync(path) ? readFileSync(path, "utf8").split("\n") : []
  const header: Array<string> = []
  for (const line of existing) {
    if (!line.startsWith("#")) break
    header.push(line)
  }
  const body = [...new Set(ids)].sort()
  writeFileSync(path, [...(header.length > 0 ? header : DEFAULT_HEADER), ...body].join("\n") + "\n")
}
