/**
 * `npm run fuzz -- --seconds N [--seed S] [--modes legacy,vm,roundtrip]`: the differential fuzzer (fuzz.ts) for N
 * seconds from seed S (random unless given; printed first, so a run can be repeated). Prints a progress line every
 * few seconds, and on a finding the shrunk program and how it differs, then exits 1.
 */
import { parseArgs } from "node:util"
import { MODES, type Mode } from "./differential.ts"
import { describeFailure, fuzz, type FuzzStats } from "./fuzz.ts"

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "60" }, seed: { type: "string" }, modes: { type: "string" } },
})
const seconds = Number(values.seconds)
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)
const modes = (values.modes?.split(",") ?? MODES) as ReadonlyArray<Mode>
if (!Number.isFinite(seconds) || seconds <= 0 || !Number.isSafeInteger(seed) || !modes.every((m) => MODES.includes(m))) {
  console.error("usage: npm run fuzz -- --seconds N [--seed S] [--modes legacy,vm,roundtrip]")
  process.exit(2)
}

const summary = (s: FuzzStats) => {
  const reasons = [...s.reasons].map(([why, n]) => `${why} ×${n}`).join("; ")
  return `${s.programs} programs: ${s.same} same, ${s.limited} at a documented cap, ${s.skipped} skipped${reasons ? ` (${reasons})` : ""}`
}

console.log(`fuzz: seed ${seed}, ${seconds} s, modes ${modes.join(",")}`)
const started = Date.now()
let lastReport = started
const { stats, failure } = await fuzz({
  seed,
  modes,
  deadline: started + seconds * 1000,
  onProgress: (s) => {
    if (Date.now() - lastReport < 30_000) return
    lastReport = Date.now()
    console.log(`  ${Math.round((lastReport - started) / 1000)} s: ${summary(s)}`)
  },
})
console.log(`fuzz: seed ${seed}: ${summary(stats)} in ${Math.round((Date.now() - started) / 1000)} s`)
if (failure !== undefined) {
  console.log(describeFailure(failure))
  process.exit(1)
}
console.log("fuzz: no differences")
process.exit(0)
