/**
 * `npm run bench [-- <name filter>]`: times every benchmark program on every engine and prints a table of
 * median times and the ratio of each engine to the baseline (the last engine). The machine is shared and noisy,
 * so engines run interleaved, round by round, and only medians and side-by-side ratios are reported.
 * BENCH_RUNS sets the number of timed runs (default 5); each engine also gets one untimed warm-up run.
 */
import { isDeepStrictEqual } from "node:util"
import { engines, type BenchEngine } from "./engines.ts"
import { programs, type BenchProgram } from "./programs.ts"

const runs = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5) || 5)
const filter = process.argv[2]

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2
}

const timeOnce = async (engine: BenchEngine, code: string): Promise<{ ms: number; value: unknown }> => {
  const run = engine.prepare(code)
  const start = performance.now()
  const value = await run()
  return { ms: performance.now() - start, value }
}

/** Median ms per engine (NaN when it failed), after checking every engine returns the same value. */
const measure = async (program: BenchProgram): Promise<Array<number>> => {
  const times = engines.map((): Array<number> => [])
  const failed = engines.map(() => false)
  const values: Array<unknown> = []
  for (let round = 0; round <= runs; round++) {
    for (const [i, engine] of engines.entries()) {
      if (failed[i]) continue
      try {
        const { ms, value } = await timeOnce(engine, program.code)
        if (round === 0) values[i] = value // warm-up: not timed, but its result is checked
        else times[i]?.push(ms)
      } catch (e) {
        failed[i] = true
        console.error(`${program.name} on ${engine.name}: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
  }
  const reference = values.at(-1)
  for (const [i, engine] of engines.entries()) {
    if (!failed[i] && !isDeepStrictEqual(values[i], reference)) {
      console.error(`${program.name}: ${engine.name} returned ${JSON.stringify(values[i])}, baseline ${JSON.stringify(reference)}`)
    }
  }
  return times.map((t, i) => (failed[i] ? NaN : median(t)))
}

const fmt = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : "n/a")

const printTable = (rows: ReadonlyArray<ReadonlyArray<string>>): void => {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? []
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join("  "))
}

const main = async (): Promise<void> => {
  const baseline = engines.at(-1)
  if (baseline === undefined) return
  const selected = programs.filter((p) => filter === undefined || p.name.includes(filter))
  const header = [
    "program",
    ...engines.map((e) => `${e.name} ms`),
    ...engines.slice(0, -1).map((e) => `${e.name} / ${baseline.name}`),
  ]
  const rows: Array<Array<string>> = [header]
  for (const program of selected) {
    const medians = await measure(program)
    const base = medians.at(-1) ?? NaN
    rows.push([
      program.name,
      ...medians.map((m) => fmt(m, 1)),
      ...medians.slice(0, -1).map((m) => (Number.isFinite(m / base) ? `${fmt(m / base, 1)}x` : "n/a")),
    ])
  }
  console.log(`median of ${runs} runs (after 1 warm-up) on Node ${process.version}`)
  printTable(rows)
}

// The fixed cost of a run (issue 20): for the full bench, or alone with "fixed".
if (filter === "fixed") await import("./fixed-cost.ts")
else {
  await main()
  if (filter === undefined) await import("./fixed-cost.ts")
  // Snapshots (issue 5): every program stopped halfway, for the full bench, by program name, or with "snapshot".
  if (filter !== "service") await import("./snapshot.ts")
  // The service bench starts servers and a database: run it for the full bench or when asked for by name.
  if (filter === undefined || filter === "service") await import("./service.ts")
}
