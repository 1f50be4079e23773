/**
 * Decoding a resume's two rows (the claim's `ClaimedRaw`, the finish's `Finished`; test/service/fixtures/rows.ts),
 * in process, no database: µs per row by the Schema decode `decodeRows` used before (`Schema.decodeUnknownEffect` of
 * an array of the row schema, `Effect.orDie`), by `decodeRows` now (the row decoder, row-decoder.ts), both run with
 * `Effect.runSync` as a caller's `yield*` would, and by the row decoder alone. Each round times every variant in
 * turn over the same number of decodes; the table gives each variant's median over the rounds, and the range.
 *
 * `node bench/row-decoder.ts` (BENCH_ROUNDS, default 9; BENCH_N decodes per round, default 5000).
 */
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
if (sink === undefined) console.log("")
