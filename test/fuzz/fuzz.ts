/**
 * The fuzzing loop shared by `npm run fuzz` (main.ts) and the bounded run in `npm test` (fuzz.test.ts). Program i
 * of a run from seed S is fast-check's first value for seed S + i, so any program is reproduced from the pair;
 * a program that differs is shrunk by fast-check to a small one that still differs.
 */
import fc from "fast-check"
import { check, MODES, type Mode, type Verdict } from "./differential.ts"
import { program } from "./grammar.ts"

export interface FuzzOptions {
  readonly seed: number
  /** Stop after this many programs... */
  readonly programs?: number
  /** ...or at this time (Date.now()), whichever comes first. */
  readonly deadline?: number
  readonly modes?: ReadonlyArray<Mode>
  readonly onProgress?: (stats: FuzzStats) => void
}

export interface FuzzStats {
  programs: number
  same: number
  skipped: number
  limited: number
  readonly reasons: Map<string, number>
}

export interface Failure {
  readonly seed: number
  readonly program: string
  readonly verdict: Verdict
}

const arbitrary = program()

/** The verdict for one program, as fast-check's property: it fails only on a finding. */
const property = (modes: ReadonlyArray<Mode>) =>
  fc.asyncProperty(arbitrary, async (code) => (await check(code, modes)).kind !== "finding")

export const fuzz = async (options: FuzzOptions): Promise<{ stats: FuzzStats; failure?: Failure }> => {
  const modes = options.modes ?? MODES
  const stats: FuzzStats = { programs: 0, same: 0, skipped: 0, limited: 0, reasons: new Map() }
  for (let i = 0; ; i++) {
    if (options.programs !== undefined && i >= options.programs) break
    if (options.deadline !== undefined && Date.now() >= options.deadline) break
    const seed = options.seed + i
    const [code] = fc.sample(arbitrary, { seed, numRuns: 1 }) as [string]
    const verdict = await check(code, modes)
    stats.programs++
    if (verdict.kind === "finding") {
      const result = await fc.check(property(modes), { seed, numRuns: 1 })
      // The shrunk counterexample (fast-check re-ran it last), or the original if shrinking lost the difference.
      if (result.failed && result.counterexample !== null) {
        const [shrunk] = result.counterexample
        const again = await check(shrunk, modes)
        if (again.kind === "finding") return { stats, failure: { seed, program: shrunk, verdict: again } }
      }
      return { stats, failure: { seed, program: code, verdict } }
    }
    stats[verdict.kind]++
    if (verdict.kind !== "same") stats.reasons.set(verdict.why, (stats.reasons.get(verdict.why) ?? 0) + 1)
    options.onProgress?.(stats)
  }
  return { stats }
}

export const describeFailure = (f: Failure): string => {
  const v = f.verdict
  const detail = v.kind === "finding" ? `${v.mode} differs from V8\n  V8:   ${JSON.stringify(v.oracle)}\n  ours: ${JSON.stringify(v.actual)}` : v.kind
  return `program seed ${f.seed}: ${detail}\n--- program (after the prelude, test/fuzz/prelude.ts) ---\n${f.program}\n---`
}
