/**
 * The fixed cost of a run (issue 20), what agents sending many small programs feel rather than loop speed:
 *
 * - `1 + 1` in a fresh run on a warm runtime, per engine, beside V8 in a fresh `node:vm` context;
 * - a small run suspended at a tool call, its state saved to bytes, read back and resumed to its end, step by step
 *   (waiting for the suspended run's fiber to end is no step). "sum" adds the steps' medians; "cycle" is the median
 *   of each cycle's own sum of the four steps, which is larger: a garbage collection or a moment without a core
 *   lands in some step of most cycles, and no step's median shows it;
 * - loading the library and the first run (set-up included), each sample in a new Node process, from src/, and
 *   when it has been built (`npm run build`) from the per-module dist/ and from the package's entry, which turns on
 *   Node's compile cache before loading the single-file bundle (here in a fresh cache folder, warmed by an untimed
 *   first sample), and that entry again with the cache turned off (`NODE_DISABLE_COMPILE_CACHE`), as a first start.
 *   The probe imports `effect/Effect`, as a host that minds its start-up does: the `effect` barrel alone costs
 *   more than the whole budget.
 *
 * Medians of many samples, in wall-clock ms; the in-process rows also give the process's mean CPU time per
 * sample (user + system, garbage collector threads included). The machine may be shared: read them side by side.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as vm from "node:vm"
import { Deferred, Effect, Fiber, Schema } from "effect"
import { CodeMode, Tool } from "../src/index.ts"

const samples = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5) || 5)

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(3) : ms.toFixed(1))

/** CPU ms of the process since `since` (a process.cpuUsage()). */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since)
  return (d.user + d.system) / 1000
}

/** Median wall ms of `n` timed calls after `warm` untimed ones, and the mean CPU ms per call. */
const timeAsync = async (warm: number, n: number, f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> => {
  for (let i = 0; i < warm; i++) await f()
  const times: number[] = []
  const cpu = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await f()
    times.push(performance.now() - t)
  }
  return { wall: median(times), cpu: cpuMs(cpu) / n }
}

const onePlusOne = async (): Promise<Array<[string, { wall: number; cpu: number }]>> => {
  const rows: Array<[string, { wall: number; cpu: number }]> = []
  for (const engine of ["legacy", "vm"] as const) {
    const runtime = CodeMode.make({ engine })
    rows.push([`codemode ${engine}`, await timeAsync(200, 100 * samples, async () => {
      const r = await Effect.runPromise(runtime.execute("1 + 1"))
      if (!r.ok || r.value !== 2) throw new Error(`1 + 1 on ${engine}: ${JSON.stringify(r)}`)
    })])
  }
  // A fresh context is V8's fresh interpreter: creating it is part of the cost here.
  rows.push(["node:vm (new context)", await timeAsync(200, 100 * samples, async () => {
    const context = vm.createContext({})
    if ((await new vm.Script("(async function () { return 1 + 1 })()").runInContext(context)) !== 2) throw new Error("node:vm")
  })])
  return rows
}

const STEPS = ["suspend", "toBytes", "fromBytes", "resume"] as const
type Step = (typeof STEPS)[number]

/** One suspend cycle: each step's wall ms, and the state's size. */
interface Cycle {
  readonly wall: Record<Step, number>
  readonly bytes: number
}

/** `(await tools.wait()) + 1`, suspended while the call waits, saved, read back and resumed to its end. */
const suspendCycle = Effect.gen(function* () {
  let open = false
  const called = { current: yield* Deferred.make<void>() }
  const wait = Tool.make({
    description: "waits until the bench opens it",
    input: {},
    output: Schema.Number,
    execute: Tool.idempotent(() => (open ? Effect.succeed(1) : Effect.andThen(Deferred.succeed(called.current, undefined), Effect.never))),
  })
  const runtime = CodeMode.make({ tools: { wait }, engine: "vm" })
  const once = Effect.gen(function* () {
    open = false
    called.current = yield* Deferred.make<void>()
    const program = runtime.program("const x = await tools.wait()\nreturn x + 1")
    const run = yield* Effect.forkChild(program.run())
    yield* Deferred.await(called.current)
    const wall = {} as Record<Step, number>
    // Each step is timed on its own: waiting for the suspended run's fiber to end is no step of the cycle.
    const timed = <A, E>(step: Step, f: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      Effect.suspend(() => {
        const t = performance.now()
        return Effect.tap(f, () => Effect.sync(() => void (wall[step] = performance.now() - t)))
      })
    const outcome = yield* timed("suspend", program.suspend()).pipe(Effect.orDie)
    yield* Fiber.join(run).pipe(Effect.orDie)
    if (outcome.ok !== "suspended") throw new Error(`not suspended: ${JSON.stringify(outcome)}`)
    const bytes = yield* timed("toBytes", Effect.sync(() => CodeMode.toBytes(outcome.state)))
    const state = yield* timed("fromBytes", Effect.sync(() => CodeMode.fromBytes(bytes)))
    open = true
    const end = yield* timed("resume", runtime.resume(state).run()).pipe(Effect.orDie)
    if (end.ok !== true || end.value !== 2) throw new Error(`resumed run: ${JSON.stringify(end)}`)
    return { wall, bytes: bytes.length } satisfies Cycle
  })
  for (let i = 0; i < 50; i++) yield* once
  const cycles: Cycle[] = []
  const cpu = process.cpuUsage()
  for (let i = 0; i < 40 * samples; i++) cycles.push(yield* once)
  return { cycles, cpu: cpuMs(cpu) / (40 * samples) }
})

/** Library load and the first `1 + 1`, in a new process: `{ load, first }` in ms. */
const LOAD_PROBE = `
  const t0 = performance.now()
  const { CodeMode } = await import(process.argv[1])
  const Effect = await import("effect/Effect")
  const t1 = performance.now()
  const r = await Effect.runPromise(CodeMode.make({ engine: process.argv[2] }).execute("1 + 1"))
  const t2 = performance.now()
  if (!r.ok) process.exit(1)
  console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1 }))
`

const loadInChild = (entry: string, engine: string, env: NodeJS.ProcessEnv): { load: number; first: number } => {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", LOAD_PROBE, entry, engine], { encoding: "utf8", env })
  if (child.status !== 0) throw new Error(`load probe failed: ${child.stderr}`)
  return JSON.parse(child.stdout) as { load: number; first: number }
}

const main = async (): Promise<void> => {
  console.log(`\nfixed cost of a run (median; machine load average ${(await import("node:os")).loadavg()[0]!.toFixed(1)})`)
  console.log("1 + 1 in a fresh run on a warm runtime:")
  for (const [name, t] of await onePlusOne()) console.log(`  ${name.padEnd(24)} ${fmt(t.wall)} ms  (cpu ${fmt(t.cpu)} ms)`)

  const { cycles, cpu } = await Effect.runPromise(suspendCycle)
  console.log(`suspend + toBytes + fromBytes + resume of a small run (${median(cycles.map((c) => c.bytes))} bytes):`)
  const steps = STEPS.map((step) => median(cycles.map((c) => c.wall[step])))
  const whole = median(cycles.map((c) => STEPS.reduce((sum, step) => sum + c.wall[step], 0)))
  console.log(`  ${STEPS.map((step, i) => `${step} ${fmt(steps[i]!)}`).join("  ")}  sum ${fmt(steps.reduce((a, b) => a + b, 0))}  cycle ${fmt(whole)} ms`)
  console.log(`  (cpu per cycle, the run up to its suspend included: ${fmt(cpu)} ms)`)
  const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...plain } = process.env
  const cacheDir = mkdtempSync(join(tmpdir(), "codemode-bench-cache-"))
  const cached = { ...plain, NODE_COMPILE_CACHE: cacheDir }
  const entries: Array<[string, string, NodeJS.ProcessEnv]> = [["src", new URL("../src/index.ts", import.meta.url).href, plain]]
  const dist = new URL("../dist/src/index.js", import.meta.url)
  const bundle = new URL("../dist/src/bundle/index.js", import.meta.url)
  if (existsSync(dist)) entries.push(["dist", dist.href, plain])
  if (existsSync(bundle)) entries.push(["package", bundle.href, cached], ["package, no cache", bundle.href, { ...plain, NODE_DISABLE_COMPILE_CACHE: "1" }])
  console.log("library load + first run, each in a new process:")
  for (const [from, entry, env] of entries) {
    for (const engine of ["legacy", "vm"]) {
      if (env === cached) loadInChild(entry, engine, env)
      const probes = Array.from({ length: samples }, () => loadInChild(entry, engine, env))
      const load = median(probes.map((p) => p.load))
      const first = median(probes.map((p) => p.first))
      console.log(`  ${`${from}, ${engine}`.padEnd(26)} load ${fmt(load)} ms  first run ${fmt(first)} ms  total ${fmt(median(probes.map((p) => p.load + p.first)))} ms`)
    }
  }
  rmSync(cacheDir, { recursive: true, force: true })
}

await main()
