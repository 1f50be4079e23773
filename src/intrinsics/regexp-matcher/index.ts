/**
 * The interruptible matcher: a backtracking matcher written here (parse.ts, compile.ts, exec.ts) for the patterns
 * V8 can only run on its backtracking engine, whose single call `timeoutMs` cannot end. V8 finishes a match that
 * backtracks too much on its linear-time engine (`useLinearFallback`), but that engine refuses backreferences,
 * lookaheads, the i/u/v/d flags, modifiers and large counted repetitions; `linearEngineRefuses` asks V8 itself,
 * and such patterns run here instead, charging every step to the run.
 *
 * `InterruptibleRegExp` has the shape of a host RegExp with `g` or `y` (an `exec` from `lastIndex`) and returns the
 * same match arrays, so intrinsics/regexp.ts uses either without knowing which.
 */
import { SandboxError } from "../../runtime/completion.ts"
import { compile, type Program } from "./compile.ts"
import { insidePair, Machine, type Poll } from "./exec.ts"
import { parsePattern } from "./parse.ts"

/**
 * A pattern with catastrophic backtracking (`/(a+)+$/` on "aaa…b") would hold the process for minutes in one host
 * call. With this process-wide V8 flag, a match that backtracks too much is finished on V8's linear-time engine
 * instead: it changes how long a match takes, never what it finds, so host code is unaffected. V8 reads it when it
 * compiles a RegExp, so it is turned on before the first host RegExp a sandbox pattern runs on (intrinsics/regexp.ts)
 * rather than when the library loads, which would make every host load node:v8 at start-up.
 */
let linearFallback = false
export const useLinearFallback = (): void => {
  if (linearFallback) return
  process.getBuiltinModule("node:v8").setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks")
  linearFallback = true
}

/**
 * Would V8's linear-time engine refuse this pattern? The `l` flag compiles a pattern for that engine only and
 * throws when it cannot; the V8 flag that enables `l` is switched on just for this question, so no other code
 * (host or sandbox) ever sees an `l` flag accepted.
 */
export const linearEngineRefuses = (source: string, flags: string): boolean => {
  const { setFlagsFromString } = process.getBuiltinModule("node:v8")
  setFlagsFromString("--enable-experimental-regexp-engine")
  try {
    new RegExp(source, flags.replace(/[gy]/g, "") + "l")
    return false
  } catch {
    return true
  } finally {
    setFlagsFromString("--no-enable-experimental-regexp-engine")
  }
}

type IndexPair = [number, number] | undefined

const MAX_PATTERN_LENGTH = 1 << 16

export class InterruptibleRegExp {
  lastIndex = 0
  private readonly program: Program
  private readonly names: ReadonlyArray<readonly [string, ReadonlyArray<number>]>
  private readonly sticky: boolean
  private readonly hasIndices: boolean
  private machine: Machine | undefined

  /** `flags` as the host RegExp would have them: with `g` or `y`, exec searches from lastIndex. */
  constructor(source: string, flags: string) {
    // Its tree and code take host memory in proportion to the pattern; patterns are far shorter than this.
    if (source.length > MAX_PATTERN_LENGTH) {
      throw new SandboxError("SyntaxError", `Invalid regular expression: a pattern of ${source.length} characters is longer than the interruptible matcher takes (${MAX_PATTERN_LENGTH})`)
    }
    let pattern
    try {
      pattern = parsePattern(source, flags)
      this.program = compile(pattern)
    } catch (e) {
      // A pattern nested deeper than the host's stack allows.
      if (e instanceof RangeError) throw new SandboxError("SyntaxError", "Invalid regular expression: too deeply nested")
      // An atom V8 accepted in its pattern but not alone would be a bug here; the program gets a clear error.
      if (e instanceof SyntaxError) throw new SandboxError("SyntaxError", `Invalid regular expression: ${e.message} (interruptible matcher)`)
      throw e
    }
    this.names = pattern.names
    this.sticky = flags.includes("y")
    this.hasIndices = flags.includes("d")
  }

  exec(S: string, poll: Poll = () => {}): RegExpExecArray | null {
    // No program code runs during a match, so one machine per pattern serves every exec.
    const machine = (this.machine ??= new Machine(this.program))
    machine.poll = poll
    try {
      return this.search(S, machine)
    } finally {
      machine.shrink()
    }
  }

  private search(S: string, machine: Machine): RegExpExecArray | null {
    const { unicode, firstChar, firstTest, anchored } = this.program
    let i = this.lastIndex
    // From inside a surrogate pair V8 first tries from the pair's start, then from where it was asked to: for a
    // search the first covers the second.
    if (unicode && insidePair(S, i)) {
      if (this.sticky) {
        const e = machine.matchAt(S, i - 1)
        if (e >= 0) return this.found(S, i - 1, e, machine)
      } else i--
    }
    while (i <= S.length) {
      if (firstChar !== undefined && !this.sticky) {
        i = S.indexOf(firstChar, i)
        if (i < 0) break
      } else if (firstTest !== undefined && !this.sticky) {
        while (i < S.length) {
          const c = unicode ? S.codePointAt(i)! : S.charCodeAt(i)
          if (firstTest(c)) break
          i += c > 0xffff ? 2 : 1
        }
        if (i >= S.length) break
      }
      const e = machine.matchAt(S, i)
      if (e >= 0) return this.found(S, i, e, machine)
      if (this.sticky || anchored) break
      // One code unit at a time, in unicode mode too (see readChar in exec.ts).
      i++
    }
    this.lastIndex = 0
    return null
  }

  private found(S: string, start: number, e: number, machine: Machine): RegExpExecArray {
    this.lastIndex = e
    return this.result(S, start, e, machine.mem)
  }

  /** The host's match array for a match of S[start, e) with these captures. */
  private result(S: string, start: number, e: number, mem: Float64Array): RegExpExecArray {
    const n = this.program.captureCount
    const span = (k: number): IndexPair => (k === 0 ? [start, e] : mem[2 * k]! < 0 || mem[2 * k + 1]! < 0 ? undefined : [mem[2 * k]!, mem[2 * k + 1]!])
    const values: Array<string | undefined> = []
    for (let k = 0; k <= n; k++) {
      const p = span(k)
      values.push(p === undefined ? undefined : S.slice(p[0], p[1]))
    }
    const m = values as unknown as RegExpExecArray
    m.index = start
    m.input = S
    // Host match arrays hold undefined for a group that did not participate, whatever the lib types say.
    m.groups = this.groups(values) as Record<string, string>
    if (this.hasIndices) {
      const pairs: IndexPair[] = []
      for (let k = 0; k <= n; k++) pairs.push(span(k))
      const indices = pairs as unknown as RegExpIndicesArray
      indices.groups = this.groups(pairs) as Record<string, [number, number]>
      m.indices = indices
    }
    return m
  }

  /** The groups object: each name's value is that of the group carrying it that participated. */
  private groups<T>(values: ReadonlyArray<T | undefined>): Record<string, T | undefined> | undefined {
    if (this.names.length === 0) return undefined
    const out: Record<string, T | undefined> = Object.create(null)
    for (const [name, indices] of this.names) {
      out[name] = undefined
      for (const k of indices) if (values[k] !== undefined) out[name] = values[k]
    }
    return out
  }
}
