/**
 * Loading the differential corpus. Programs live in `corpus/<topic>.js`, separated by a line `// === <name>`;
 * each program is an async function body (top-level `await` and `return` allowed) and its id is `<topic>/<name>`.
 * Comment lines before the first marker are the file's header. Anything else there, an empty program, a bad or
 * duplicate name, is a `CorpusError` naming the place, so a broken corpus fails loudly instead of shrinking.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

export const corpusDir = join(import.meta.dirname, "corpus")

export interface Program {
  readonly id: string
  readonly topic: string
  readonly name: string
  readonly code: string
  readonly file: string
  /** 1-based line of the program's first line in `file`. */
  readonly line: number
}

export class CorpusError extends Error {
  override readonly name = "CorpusError"
}

const MARKER = /^\/\/ === (.*)$/
const NAME = /^[\w.-]+$/

/** Splits one corpus file into its programs. */
export const parseCorpusFile = (topic: string, file: string, text: string): Array<Program> => {
  const programs: Array<Program> = []
  let current: { name: string; start: number; body: Array<string> } | undefined
  const flush = () => {
    if (current === undefined) return
    const code = current.body.join("\n").trim()
    if (code === "") throw new CorpusError(`${topic}/${current.name}: empty program (${file}:${current.start})`)
    programs.push({ id: `${topic}/${current.name}`, topic, name: current.name, code, file, line: current.start })
  }
  text.split("\n").forEach((line, index) => {
    const marker = MARKER.exec(line)
    if (marker !== null) {
      flush()
      const name = (marker[1] ?? "").trim()
      if (!NAME.test(name)) throw new CorpusError(`${file}:${index + 1}: bad program name "${name}"`)
      current = { name, start: index + 2, body: [] }
    } else if (current !== undefined) {
      current.body.push(line)
    } else if (line.trim() !== "" && !line.trimStart().startsWith("//")) {
      throw new CorpusError(`${file}:${index + 1}: code before the first "// === <name>" marker`)
    }
  })
  flush()
  const seen = new Set<string>()
  for (const program of programs) {
    if (seen.has(program.name)) throw new CorpusError(`${program.id}: duplicate program name in ${file}`)
    seen.add(program.name)
  }
  return programs
}

/** Every program of the corpus: files in name order, programs in file order. */
export const loadCorpus = (dir: string = corpusDir): Array<Program> =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .sort()
    .flatMap((f) => parseCorpusFile(f.slice(0, -3), join(dir, f), readFileSync(join(dir, f), "utf8")))
