/**
 * `npm run bench [-- <name filter>]`: times every benchmark program on our two engines and on the interpreters a
 * user would pick instead (V8 through node:vm, QuickJS-wasm, sval), each engine on each program in a child process
 * of its own (bench/child.ts), and prints median times, ratios to V8 and to QuickJS, and their geomeans. Every
 * engine's result is checked equal to V8's. The machine is shared and noisy: compare the ratios of one run, not
 * absolute times across runs. BENCH_RUNS sets the number of timed runs (default 15), after one untimed warm-up.
 */
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { isDeepStrictEqual } from "node:util"
import { engineNames } from "./engines.ts"
import { programs, type BenchProgram } from "./programs.ts"

const runs = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 15) || 15)
const filter = process.argv[2]
const child = fileURLToPath(new URL("./child.ts", import.meta.url))

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2
}

const geomean = (xs: ReadonlyArray<number>): number => {
  const ok = xs.filter(Number.isFinite)
  return ok.length === 0 ? NaN : Math.exp(ok.reduce((s, x) => s + Math.log(x), 0) / ok.length)
}

/** One engine on one program in its own process: the warm-up's value and the timed runs' median (NaN if it failed). */
const runChild = async (engine: string, program: BenchProgram): Promise<{ value: unknown; ms: number }> => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [child, engine, program.name, String(runs)], {
      maxBuffer: 64 * 1024 * 1024,
    })
    const out = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as { value: unknown; times: Array<number> }
    return { value: out.value, ms: median(out.times) }
  } catch (e) {
    const message = e instanceof Error ? ((e as { stderr?: string }).stderr || e.message) : String(e)
    const lines = message.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("    at "))
    console.error(`${program.name} on ${engine}: ${lines.slice(0, 3).join(" | ")}`)
    return { value: undefined, ms: NaN }
  }
}

const measure = async (program: BenchProgram): Promise<Array<number>> => {
  const results = []
  for (const engine of engineNames) results.push(await runChild(engine, program))
  const reference = results[0]?.value
  for (const [i, r] of results.entries()) {
    if (Number.isFinite(r.ms) && !isDeepStrictEqual(r.value, reference)) {
      console.error(`${program.name}: ${engineNames[i]} returned ${JSON.stringify(r.value)}, V8 ${JSON.stringify(reference)}`)
      results[i] = { value: r.value, ms: NaN }
    }
  }
  return results.map((r) => r.ms)
}

const fmt = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : "n/a")
const ratio = (n: number): string => (Number.isFinite(n) ? `${fmt(n, 1)}x` : "n/a")

const printTable = (rows: ReadonlyArray<ReadonlyArray<string>>): void => {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? []
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join("  "))
}

const main = async (): Promise<void> => {
  const selected = programs.filter((p) => filter === undefined || p.name.includes(filter))
  if (selected.length === 0) return
  // Ratios to V8 for every other engine; ratios to QuickJS for sval and ours.
  const toV8 = engineNames.slice(1)
  const toQjs = engineNames.slice(2)
  const header = ["program", ...engineNames.map((e) => `${e} ms`), ...toV8.map((e) => `${e}/V8`), ...toQjs.map((e) => `${e}/QJS`)]
  const rows: Array<Array<string>> = [header]
  const v8Ratios: Array<Array<number>> = toV8.map(() => [])
  const qjsRatios: Array<Array<number>> = toQjs.map(() => [])
  for (const program of selected) {
    const m = await measure(program)
    const v8 = m[0] ?? NaN
    const qjs = m[1] ?? NaN
    const rv = m.slice(1).map((x) => x / v8)
    const rq = m.slice(2).map((x) => x / qjs)
    rv.forEach((r, i) => v8Ratios[i]?.push(r))
    rq.forEach((r, i) => qjsRatios[i]?.push(r))
    rows.push([program.name, ...m.map((x) => fmt(x, 1)), ...rv.map(ratio), ...rq.map(ratio)])
  }
  rows.push(["geomean", ...engineNames.map(() => ""), ...v8Ratios.map((r) => ratio(geomean(r))), ...qjsRatios.map((r) => ratio(geomean(r)))])
  console.log(`median of ${runs} runs (after 1 warm-up), each engine in its own process, on Node ${process.version}`)
  printTable(rows)
}

// The fixed cost of a run (issue 20): for the full bench, or alone with "fixed". Start-up of `codemode serve`
// (issue 18): for the full bench, or alone with "startup".
if (filter === "fixed") await import("./fixed-cost.ts")
else if (filter === "startup") await import("./startup.ts")
else {
  await main()
  if (filter === undefined) await import("./fixed-cost.ts")
  // Snapshots (issue 5): every program stopped halfway, for the full bench, by program name, or with "snapshot".
  if (filter !== "service") await import("./snapshot.ts")
  // The service bench starts servers and a database: run it for the full bench or when asked for by name.
  if (filter === undefined || filter === "service") await import("./service.ts")
  if (filter === undefined) await import("./startup.ts")
}
