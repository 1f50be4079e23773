/**
 * Fixed allocation caps of a run (ARCHITECTURE principle 6). They sit well below V8's own limits so that a hostile
 * program ends with a catchable RangeError long before the host process runs out of memory. docs/language.md
 * lists them; change both together.
 */
import { chargeString } from "./memory.ts"
import { throwRangeError } from "./completion.ts"

export const Caps = {
  /** Longest string a program can build (UTF-16 code units). */
  maxStringLength: 1 << 27,
  /** Most elements an array can actually store (its `length` may be larger while it is sparse). */
  maxArrayStorage: 1 << 25,
  /** Largest ArrayBuffer in bytes. */
  maxArrayBufferBytes: 1 << 28,
  /** Most promises a run may have pending at once. */
  maxPendingPromises: 1 << 20,
  /**
   * Longest argument list of one call (`f(...a)`, `f.apply(x, a)`, `Reflect.apply`): about where V8 runs out of
   * stack (125,175 arguments on Node 24), with the same RangeError.
   */
  maxArguments: 1 << 17,
  /** Deepest call stack; past it a call throws RangeError ("Maximum call stack size exceeded"). */
  maxCallDepth: 10_000,
  /** Most console output a run keeps (UTF-16 code units, all lines together); later lines are dropped. */
  maxLogLength: 1 << 25,
  /**
   * Longest program source (UTF-16 code units). Parsing and checking are not steps: `timeoutMs` cannot stop them,
   * and they cost about 10 µs and 3 KB per statement, so the text itself is bounded (past it: a ParseError).
   */
  maxSourceLength: 1 << 20,
} as const

/** Checks the length of a string about to be made, and charges it to the run's memory budget. */
export const checkStringLength = (n: number): void => {
  if (n > Caps.maxStringLength) throwRangeError("Invalid string length")
  chargeString(n)
}

export const checkArgumentCount = (n: number): void => {
  if (n > Caps.maxArguments) throwRangeError("Maximum call stack size exceeded")
}

export const checkArrayStorage = (n: number): void => {
  if (n > Caps.maxArrayStorage) throwRangeError("Invalid array length")
}
