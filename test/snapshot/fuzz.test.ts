/**
 * Hostile and corrupted states (issue 5, "done when"): bytes of real snapshots flipped, overwritten and truncated
 * at random, and snapshot JSON mutated at random, with a fixed seed so a failure replays. Every case must end in
 * a `SnapshotError` or a run — for bytes, the correct run — and never in a defect, a host exception or a hang.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { CodeMode, Tool } from "../../src/index.ts"
import type { Suspended } from "../../src/host/vm-run.ts"

/** mulberry32: a small seeded PRNG. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const PROGRAMS = [
  `const m = new Map([["a", [1, 2]], ["b", { c: 3 }]])
   const s = new Set([1, "x", 2n])
   class Point { #x; constructor(x) { this.#x = x } get x() { return this.#x } }
   const p = new Point(7)
   function* gen() { yield 1; yield 2 }
   const g = gen(); g.next()
   const d = new Date(0)
   const r = /a(b)?/g; r.exec("abab")
   const got = await tools.read({ n: 2 })
   return [got, [...m.keys()], [...s].map(String), p.x, g.next().value, d.getTime(), r.lastIndex]`,
  `const results = await Promise.all([1, 2, 3].map((n) => tools.job({ n })))
   const bytes = new Uint8Array([1, 2, 3]).map((b) => b * 2)
   return { results, bytes: [...bytes], text: new TextDecoder().decode(new TextEncoder().encode("hé")) }`,
  `let total = 0
   const pending = tools.read({ n: 5 })
   for (let i = 0; i < 10; i++) total += i
   Object.prototype.extra = "!"
   const v = await pending
   return String(total + v) + ({}).extra`,
]

const makeRuntime = (gate: Deferred.Deferred<void> | undefined) => {
  const read = Tool.make({
    description: "read",
    input: Schema.Struct({ n: Schema.Number }),
    output: Schema.Number,
    execute: Tool.idempotent(({ n }) => (gate === undefined ? Effect.succeed(n * 3) : Deferred.await(gate).pipe(Effect.as(n * 3)))),
  })
  const job = Tool.make({
    description: "job",
    input: Schema.Struct({ n: Schema.Number }),
    output: Schema.Number,
    execute: Tool.durable({
      start: ({ n }) => Effect.succeed({ n }),
      wait: ({ n }) => (gate === undefined ? Effect.succeed(n * 10) : Effect.never),
    }),
  })
  return CodeMode.make({ tools: { read, job }, engine: "vm" })
}

/** A real snapshot of each program, taken while it waits on its tools, and the Result its resume gives. */
const snapshots = Effect.gen(function* () {
  const out: Array<{ bytes: Uint8Array; state: CodeMode.Snapshot; expected: CodeMode.Result }> = []
  for (const [i, code] of PROGRAMS.entries()) {
    const gate = yield* Deferred.make<void>()
    const program = makeRuntime(gate).program(code, undefined, { runId: `fuzz-${i}` })
    const run = yield* Effect.forkChild(program.run())
    for (let k = 0; k < 30; k++) yield* Effect.yieldNow
    const s = (yield* program.suspend()) as Suspended
    yield* Fiber.join(run)
    const bytes = CodeMode.toBytes(s.state)
    const expected = (yield* makeRuntime(undefined).resume(bytes).run()) as CodeMode.Result
    assert.strictEqual(expected.ok, true, JSON.stringify(expected))
    out.push({ bytes, state: s.state, expected })
  }
  return out
})

/** Resumes `state`: SnapshotError, or a Result; anything else (a defect, a hang) fails the test. */
const resume = (state: Uint8Array | CodeMode.Snapshot) =>
  Effect.gen(function* () {
    const exit = yield* makeRuntime(undefined).resume(state).run().pipe(Effect.timeout(10_000), Effect.exit)
    if (Exit.isSuccess(exit)) return { ok: "ran" as const, outcome: exit.value }
    const error = Cause.squash(exit.cause)
    assert.instanceOf(error, CodeMode.SnapshotError, `not a SnapshotError: ${Cause.pretty(exit.cause)}`)
    return { ok: "refused" as const }
  })

describe("corrupted and hostile snapshots", () => {
  it.live("flipped, overwritten and truncated bytes: SnapshotError or the correct run", () =>
    Effect.gen(function* () {
      const saved = yield* snapshots
      const random = prng(0xc0de5)
      let refused = 0
      for (let i = 0; i < 400; i++) {
        const { bytes, expected } = saved[i % saved.length]!
        const mutated = new Uint8Array(bytes)
        let input: Uint8Array = mutated
        const at = Math.floor(random() * bytes.length)
        switch (i % 4) {
          case 0: // one bit
            mutated[at] = mutated[at]! ^ (1 << Math.floor(random() * 8))
            break
          case 1: // a few bytes
            for (let k = 0; k < 1 + Math.floor(random() * 4); k++) mutated[Math.floor(random() * bytes.length)] = Math.floor(random() * 256)
            break
          case 2: // truncated
            input = mutated.subarray(0, at)
            break
          default: // a byte inserted
            input = new Uint8Array([...mutated.subarray(0, at), Math.floor(random() * 256), ...mutated.subarray(at)])
        }
        const r = yield* resume(input)
        if (r.ok === "refused") refused++
        else assert.deepStrictEqual(r.outcome, expected, `case ${i}`)
      }
      // The checksum makes nearly every change a SnapshotError before anything is parsed.
      assert.isAbove(refused, 390)
    }))

  it.live("mutated JSON: SnapshotError or a run, never a defect or a hang", () =>
    Effect.gen(function* () {
      const saved = yield* snapshots
      const random = prng(0x5eed)
      const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(random() * xs.length)]!
      /** Every [container, key] of a JSON tree. */
      const slots = (v: unknown, out: Array<[Record<string, unknown> | unknown[], string | number]> = []) => {
        if (typeof v !== "object" || v === null) return out
        for (const [k, x] of Object.entries(v)) {
          out.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k])
          slots(x, out)
        }
        return out
      }
      const replacements: ReadonlyArray<() => unknown> = [
        () => Math.floor(random() * 50),
        () => -1,
        () => 1e300,
        () => "x",
        () => "%Array.prototype%",
        () => null,
        () => true,
        () => [],
        () => ({}),
        () => ({ r: Math.floor(random() * 40) }),
        () => ({ x: pick(["%Object.prototype%", "code:0", "code:99", "Symbol.iterator", "sym:EMPTY"]) }),
        () => ({ u: 1 }),
        () => ({ n: "NaN" }),
        () => ({ b: "ff" }),
        () => ({ c: pick(["ArrayObject", "Frame", "PromiseObject", "Nope"]), f: [] }),
      ]
      let ran = 0
      for (let i = 0; i < 300; i++) {
        const { state } = saved[i % saved.length]!
        const copy = JSON.parse(JSON.stringify(state)) as CodeMode.Snapshot
        const all = slots(copy)
        for (let k = 0; k < 1 + Math.floor(random() * 3); k++) {
          const [container, key] = pick(all)
          if (random() < 0.15 && !Array.isArray(container)) delete container[key as string]
          else (container as Record<string | number, unknown>)[key] = pick(replacements)()
        }
        const r = yield* resume(copy)
        if (r.ok === "ran") ran++
      }
      // Some mutations land in places that do not matter (a log line, a number the program never reads).
      assert.isAtMost(ran, 300)
    }))
})
