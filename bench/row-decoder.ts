/**
 * Decoding a resume's two rows (the claim's `ClaimedRaw`, the finish's `Finished`; test/service/fixtures/rows.ts),
 * in process, no database: µs per row by the Schema decode `decodeRows` used before (`Schema.decodeUnknownEffect` of
 * an array of the row schema, `Effect.orDie`), by `decodeRows` now (the row decoder, row-decoder.ts), both run with
 * `Effect.runSync` as a caller's `yield*` would, and by the row decoder alone. Each round times every variant in
 * turn over the same number of decodes; the table gives each variant's median over the rounds, and the range.
 *
 * Warm loops flatter the Schema decode: in the server a resume decodes two rows among milliseconds of other work, so
 * that code is seldom hot. The second table is that side: in a new process for each sample (BENCH_COLD of them,
 * default 7), a claim row and a finish row decoded once each by one of the two ways (the decoders made before the
 * clock starts, and the runtime run once), then 50 times more; medians over the processes.
 *
 * `node bench/row-decoder.ts` (BENCH_ROUNDS, default 9; BENCH_N decodes per round, default 5000).
 */
import { spawnSync } from "node:child_process"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { rowDecoder } from "../src/server/store/postgres/row-decoder.ts"
import { rowSchemas } from "../src/server/store/postgres/runs.ts"
import { decodeRows } from "../src/server/store/postgres/shared.ts"
import { claimRow, finishRow } from "../test/service/fixtures/rows.ts"

const rounds = Math.max(1, Number(process.env["BENCH_ROUNDS"] ?? 9) || 9)
const n = Math.max(1, Number(process.env["BENCH_N"] ?? 5000) || 5000)

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

let sink: unknown
const time = (f: () => unknown): number => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) sink = f()
  return Number(process.hrtime.bigint() - start) / 1e3 / n
}

const variants = (name: string, schema: Schema.Decoder<unknown>, row: unknown) => {
  const rows = [row]
  const before = Schema.decodeUnknownEffect(Schema.Array(schema))
  const now = decodeRows(schema)
  const fast = rowDecoder(schema)!
  return [
    [`${name}: Schema decode (before)`, () => Effect.runSync(before(rows).pipe(Effect.orDie))],
    [`${name}: decodeRows (now)`, () => Effect.runSync(now(rows))],
    [`${name}: row decoder alone`, () => fast(row)],
  ] as const
}

/** One cold sample, in this (new) process: µs for the first claim + finish decode, then per claim + finish of 50 more. */
const cold = (way: string): void => {
  const make = (schema: Schema.Decoder<unknown>) => {
    if (way === "now") return decodeRows(schema)
    const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
    return (raw: ReadonlyArray<unknown>) => rows(raw).pipe(Effect.orDie)
  }
  const claim = make(rowSchemas.ClaimedRaw)
  const finish = make(rowSchemas.Finished)
  const pair = () => {
    sink = Effect.runSync(claim([claimRow]))
    sink = Effect.runSync(finish([finishRow]))
  }
  sink = Effect.runSync(Effect.succeed([claimRow])) // the runtime's own first run, outside the clock
  let start = process.hrtime.bigint()
  pair()
  const first = Number(process.hrtime.bigint() - start) / 1e3
  start = process.hrtime.bigint()
  for (let i = 0; i < 50; i++) pair()
  const next = Number(process.hrtime.bigint() - start) / 1e3 / 50
  console.log(JSON.stringify({ first, next }))
}

if (process.env["BENCH_COLD_WAY"] !== undefined) {
  cold(process.env["BENCH_COLD_WAY"])
  process.exit(0)
}

const all = [...variants("claim", rowSchemas.ClaimedRaw, claimRow), ...variants("finish", rowSchemas.Finished, finishRow)]
const baseline = ["Effect.runSync(Effect.succeed(rows))", () => Effect.runSync(Effect.succeed([claimRow]))] as const
const cases = [...all, baseline]

for (const [, f] of cases) time(f) // warm up: compile, JIT
const results = new Map<string, Array<number>>(cases.map(([name]) => [name, []]))
for (let r = 0; r < rounds; r++) for (const [name, f] of cases) results.get(name)!.push(time(f))

console.log(`node ${process.version}, ${rounds} rounds of ${n} decodes each; µs per row (median, min–max of round medians)`)
for (const [name, xs] of results) {
  console.log(`${name.padEnd(42)} ${median(xs).toFixed(3).padStart(9)}   (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`)
}

const coldSamples = Math.max(1, Number(process.env["BENCH_COLD"] ?? 7) || 7)
const coldRuns = new Map<string, Array<{ first: number; next: number }>>([["before", []], ["now", []]])
for (let i = 0; i < coldSamples; i++) {
  for (const [way, xs] of coldRuns) {
    const child = spawnSync(process.execPath, [import.meta.filename], { env: { ...process.env, BENCH_COLD_WAY: way }, encoding: "utf8" })
    xs.push(JSON.parse(child.stdout.trim()) as { first: number; next: number })
  }
}
console.log(`\ncold, ${coldSamples} new processes each; µs per claim + finish pair (median, min–max)`)
for (const [way, xs] of coldRuns) {
  const show = (ys: Array<number>) => `${median(ys).toFixed(1).padStart(9)}   (${Math.min(...ys).toFixed(1)}–${Math.max(...ys).toFixed(1)})`
  const label = way === "before" ? "Schema decode (before)" : "decodeRows (now)"
  console.log(`${`${label}: first pair`.padEnd(42)} ${show(xs.map((x) => x.first))}`)
  console.log(`${`${label}: next 50, each`.padEnd(42)} ${show(xs.map((x) => x.next))}`)
}
if (sink === undefined) console.log("")
