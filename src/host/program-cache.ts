/**
 * Checked programs, shared by every run and resume of the same source. Agents send the same small programs again
 * and again, and a resume needs the program its run started with; parsing and checking are a pure function of the
 * source and their result is never changed afterwards, so one result serves them all (the VM's compilation of it
 * is kept beside it, vm-compile.ts). Bounded: the most recently used programs, up to a count and a total length.
 */
import { checkProgram, type CheckResult } from "../language/index.ts"

/**
 * A kept program holds its syntax tree and scopes, and beside them its bytecode or the tree-walker's closures: some
 * 120 bytes of heap per character of source on the VM, 180 on the tree-walker (measured on Node 24 after a run of
 * each of 200 distinct 670-character programs: 85 and 121 KB each; 11 KB for a 42-character one). The characters bound
 * that memory (under 50 MB on the VM, 70 on the tree-walker); the count is for the many short programs agents send and
 * the runs suspended at once, each of whose resumes needs its program: resumes in the order their runs started miss
 * every time once those runs outnumber the programs kept.
 */
const MAX_PROGRAMS = 1024
/** Total characters of the sources kept; a source longer than this is checked each time. */
const MAX_CHARACTERS = 384_000

/** Most recently used last; a Map keyed by the source hashes it once per lookup. */
const cache = new Map<string, CheckResult>()
let characters = 0

export const checkCached = (source: string): CheckResult => {
  const hit = cache.get(source)
  if (hit !== undefined) {
    cache.delete(source)
    cache.set(source, hit)
    return hit
  }
  const checked = checkProgram(source)
  if (source.length > MAX_CHARACTERS) return checked
  cache.set(source, checked)
  characters += source.length
  for (const [oldest] of cache) {
    if (cache.size <= MAX_PROGRAMS && characters <= MAX_CHARACTERS) break
    cache.delete(oldest)
    characters -= oldest.length
  }
  return checked
}
