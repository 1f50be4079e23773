/**
 * The snapshot section of `npm run bench` (issue 5): each benchmark program is run on the VM, stopped halfway
 * through, and the table reports the state's size and what each step of a suspend/resume
 * costs: `suspend` (from the request to the Suspended outcome: waiting for the slice boundary, saving the state),
 * `toBytes`, `fromBytes`, and `resume` (a fresh realm rebuilt from the bytes until the program can run again,
 * measured as a resume suspended again before its first step, so it includes one more save of the state).
 * "Halfway" is counted in slices: the VM runs in slices of 200 steps here (an internal knob), the run loop lets
 * other fibers run between two slices, so the bench first counts how many times it gets to run while the program
 * runs to its end, then suspends after half as many. The VM stops at the next point where no built-in's frame is
 * live, so a program whose second half runs inside one built-in (a sort's comparator calls) ends first: it says
 * so. Medians of BENCH_RUNS runs.
 */
import { Effect, Fiber } from "effect"
import { CodeMode } from "../src/index.ts"
import { makeWith, type VmRuntime } from "../src/host/codemode.ts"
import { programs } from "./programs.ts"

const runs = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5) || 5)
const filter = process.argv[2]

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const runtime = makeWith({ engine: "vm" }, { sliceSteps: 200 }) as VmRuntime

interface Sample {
  readonly bytes: number
  readonly suspend: number
  readonly toBytes: number
  readonly fromBytes: number
  readonly resume: number
}

/** How many times the bench fiber gets to run while the program runs to its end. */
const turnsToEnd = (code: string): Effect.Effect<number> =>
  Effect.gen(function* () {
    const run = yield* Effect.forkChild(runtime.program(code).run())
    let turns = 0
    while (run.pollUnsafe() === undefined) {
      yield* Effect.yieldNow
      turns++
    }
    return turns
  })

/** One program stopped after `turns` turns: the sample, or undefined when it ended first. */
const stopAfter = (code: string, turns: number): Effect.Effect<Sample | undefined> =>
  Effect.gen(function* () {
    const program = runtime.program(code)
    const run = yield* Effect.forkChild(program.run())
    for (let i = 0; i < turns; i++) yield* Effect.yieldNow
    const t0 = performance.now()
    const outcome = yield* program.suspend().pipe(Effect.orDie)
    const suspend = performance.now() - t0
    yield* Fiber.join(run).pipe(Effect.orDie)
    if (outcome.ok !== "suspended") return undefined
    const t1 = performance.now()
    const bytes = CodeMode.toBytes(outcome.state)
    const toBytes = performance.now() - t1
    const t2 = performance.now()
    const state = CodeMode.fromBytes(bytes)
    const fromBytes = performance.now() - t2
    const t3 = performance.now()
    const resumed = runtime.resume(state)
    const again = yield* Effect.forkChild(resumed.run())
    yield* resumed.suspend().pipe(Effect.orDie)
    const resume = performance.now() - t3
    yield* Fiber.join(again).pipe(Effect.orDie)
    // The state resumes to the right end (checked once per sample, untimed).
    const end = yield* runtime.resume(bytes).run().pipe(Effect.orDie)
    if (end.ok !== true) throw new Error(`resumed run failed: ${JSON.stringify(end)}`)
    return { bytes: bytes.length, suspend, toBytes, fromBytes, resume }
  })

const fullRunMs = (code: string): Effect.Effect<number> =>
  Effect.gen(function* () {
    const t = performance.now()
    yield* CodeMode.make({ engine: "vm" }).execute(code)
    return performance.now() - t
  })

const main = Effect.gen(function* () {
  const rows: string[][] = [["program (stopped halfway)", "run ms", "bytes", "suspend ms", "toBytes ms", "fromBytes ms", "resume ms"]]
  for (const p of programs) {
    if (filter !== undefined && filter !== "snapshot" && !p.name.includes(filter)) continue
    yield* fullRunMs(p.code) // warm-up
    const full: number[] = []
    for (let i = 0; i < runs; i++) full.push(yield* fullRunMs(p.code))
    const half = Math.floor((yield* turnsToEnd(p.code)) / 2)
    const samples: Sample[] = []
    for (let i = 0; i <= runs; i++) {
      const s = yield* stopAfter(p.code, half)
      if (s !== undefined && i > 0) samples.push(s)
    }
    const col = (f: (s: Sample) => number, digits = 2) => (samples.length === 0 ? "ended" : median(samples.map(f)).toFixed(digits))
    rows.push([p.name, median(full).toFixed(1), col((s) => s.bytes, 0), col((s) => s.suspend), col((s) => s.toBytes), col((s) => s.fromBytes), col((s) => s.resume)])
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)))
  console.log(`\nsnapshots: each program suspended halfway on the VM (median of ${runs} runs)`)
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "))
})

await Effect.runPromise(main)
