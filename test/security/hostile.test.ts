/**
 * Every step bounded in time (issue 16): each program makes one built-in do work that grows with its input, in a
 * loop, so that without charging that work to the run a single step would hold the host for seconds. Each must end
 * within `timeoutMs` + 1 s with a clean diagnostic (or its answer), on both engines, and leave the host alive.
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { ENGINES, makeFor } from "../host/engines.ts"
import { roundtripMode } from "../../src/host/roundtrip.ts"

const TIMEOUT_MS = 2_000
// Round-trip mode (src/host/roundtrip.ts) writes the whole state to bytes and reads it back at every save point, and
// these states hold hundreds of MB: each save point costs the test mode about a second of its own. The bound there
// is for that mode's work, not the engine's; a run that is never stopped still fails it.
const BOUND_MS = TIMEOUT_MS + (roundtripMode() ? 5_000 : 1_000)

const PROGRAMS: Record<string, string> = {
  "Reflect.apply with a huge array-like": `return Reflect.apply(Math.max, null, { length: 2 ** 27 })`,
  "Function.prototype.apply with a huge array-like": `return String.fromCharCode.apply(null, { length: 2 ** 25 })`,
  "spread of a huge array into a call": `const a = new Array(2 ** 24).fill(1); return Math.max(...a)`,
  "typed-array fill": `const t = new Uint8Array(2 ** 28); for (let i = 0; ; i++) t.fill(i)`,
  "typed-array indexOf": `const t = new Uint8Array(2 ** 28); for (;;) t.indexOf(1)`,
  "typed-array includes": `const t = new Uint8Array(2 ** 28); for (;;) t.includes(1)`,
  "typed-array lastIndexOf": `const t = new Uint8Array(2 ** 28); for (;;) t.lastIndexOf(1)`,
  "typed-array reverse": `const t = new Uint8Array(2 ** 28); for (;;) t.reverse()`,
  "typed-array toReversed": `const t = new Uint8Array(2 ** 27); for (;;) t.toReversed()`,
  "typed-array slice": `const t = new Uint8Array(2 ** 27); for (;;) t.slice()`,
  "typed-array copyWithin": `const t = new Uint8Array(2 ** 28); for (;;) t.copyWithin(0, 1)`,
  "typed-array set": `const t = new Uint8Array(2 ** 28); const u = new Uint8Array(2 ** 28); for (;;) t.set(u)`,
  "BigInt multiplication of huge numbers": `let a = (1n << 500000n) - 1n; for (;;) a * a`,
  "=== on distinct equal long strings": `const a = "x".repeat(2 ** 27); const b = "x".repeat(2 ** 26) + "x".repeat(2 ** 26); let n = 0; for (;;) if (a === b) n++`,
  "property lookup by a distinct equal long string": `const a = "x".repeat(2 ** 27); const b = "x".repeat(2 ** 26) + "x".repeat(2 ** 26); const o = { [a]: 1 }; let n = 0; for (;;) n += o[b]`,
  "Map lookup by a distinct equal long string": `const a = "x".repeat(2 ** 27); const b = "x".repeat(2 ** 26) + "x".repeat(2 ** 26); const m = new Map([[a, 1]]); let n = 0; for (;;) n += m.get(b)`,
  "String.raw over a huge raw length": `return String.raw({ raw: { length: 2 ** 32 } })`,
  "normalize of a huge string": `const s = "\\uFDFA".repeat(2 ** 23); for (;;) s.normalize("NFKD")`,
  "console.dir of a shared graph": `let o = {}; for (let i = 0; i < 40; i++) o = { a: o, b: o }; console.dir(o, { depth: Infinity })`,
  "ArrayBuffer.prototype.slice of big buffers": `const b = new ArrayBuffer(2 ** 28); const kept = []; for (let i = 0; i < 12; i++) kept.push(b.slice(0)); for (;;) b.slice(0)`,
  // A backreference keeps V8's backtracking engine: the interruptible matcher runs it instead.
  "a backtracking regex with a backreference": `return /^(a+)+\\1?$/.test("a".repeat(34) + "b")`,
  // Each concatenation is flattened by the host when read: 128 MB a step, garbage at once.
  "flattened copies of a long string": `const big = "a".repeat(2 ** 26); const kept = []; for (let i = 0; ; i++) kept.push((big + i).charCodeAt(1))`,
  "RegExp Symbol.replace with an exec of a huge length": `return RegExp.prototype[Symbol.replace].call({ exec() { return { length: 2 ** 32 - 1, index: 0, 0: "a" } }, flags: "" }, "abc", "x")`,
  "RegExp Symbol.split with an exec of a huge length": `let n = 0; return RegExp.prototype[Symbol.split].call({ constructor: { [Symbol.species]: function () { return { exec() { return n++ ? null : { length: 2 ** 32 - 1, index: 0, 0: "a" } }, lastIndex: 0, flags: "" } } }, flags: "" }, "abc")`,
}

describe.each(ENGINES)("hostile built-ins on %s", (engine) => {
  // The service always has a memory budget; without one, 12 slices of 2^28 bytes are 3 GB of the host's.
  const runtime = makeFor(engine)({ limits: { timeoutMs: TIMEOUT_MS, maxMemoryBytes: 2 ** 30 } })
  for (const [name, code] of Object.entries(PROGRAMS)) {
    // A wall-clock bound: a moment without a core on a shared machine is retried; a run never stopped fails every try.
    it(`${name} ends within timeoutMs + 1 s`, { timeout: 60_000, retry: 2 }, async () => {
      const started = performance.now()
      const result = await Effect.runPromise(runtime.execute(code))
      const elapsed = performance.now() - started
      expect(elapsed).toBeLessThan(BOUND_MS)
      if (!result.ok) expect(["TimeoutExceeded", "ExecutionFailure"]).toContain(result.error.kind)
    })
  }
})

describe("normalize a slice at a time", () => {
  // Characters that compose, reorder and decompose across each other, and the places normalization may cut.
  const POOL = ["a", "e", "\u0301", "\u0327", "\u0345", "\u1100", "\u1161", "\u11A8", "\uAC00", "\u0627", "\u0654", "\u0B47", "\u0B3E", "\u3099", "\u304B", "\uFDFA", "\u4E00", "\u2CEF", "\u2DE0", "\uFF76", "\uFF9E", "\u1E9B", "\u0390", "Å", " "]
  let seed = 42
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31)
  const text = Array.from({ length: 60_000 }, () => POOL[Math.floor(random() * POOL.length)]).join("")

  it.each(ENGINES)("gives the host's answer for every form on %s", async (engine) => {
    const result = await Effect.runPromise(makeFor(engine)().execute(`return ["NFC", "NFD", "NFKC", "NFKD"].map((f) => text.normalize(f))`, { text }))
    expect(result).toMatchObject({ ok: true, value: ["NFC", "NFD", "NFKC", "NFKD"].map((f) => text.normalize(f)) })
  })
})
