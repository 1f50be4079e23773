/**
 * The differential corpus: every program runs on V8 (node:vm) and on each codemode engine (test/engines.ts), and
 * the outcomes must be equal, except for the ids listed in the engine's known-failures file
 * (known-failures.txt for the VM, known-failures.<engine>.txt otherwise), which must still differ (see
 * known-failures.ts). UPDATE_KNOWN_FAILURES=1 records the current differences instead of failing on them.
 */
import { afterAll, describe, expect, it } from "vitest"
import { engines, type Engine } from "../engines.ts"
import { loadCorpus, runEngine, runOracle, sameOutcome, type Outcome, type Program } from "./harness.ts"
import { knownFailuresPathFor, readKnownFailures, writeKnownFailures } from "./known-failures.ts"

const programs = loadCorpus()
const update = process.env["UPDATE_KNOWN_FAILURES"] === "1"

/** One oracle run per program, shared by the engines. */
const oracleRuns = new Map<string, Promise<Outcome>>()
const oracleOutcome = (program: Program): Promise<Outcome> => {
  let run = oracleRuns.get(program.id)
  if (run === undefined) {
    run = runOracle(program.code).catch((e: unknown) => {
      throw new Error(`${program.id} (${program.file}:${program.line}) is not a valid corpus program: ${String(e)}`)
    })
    oracleRuns.set(program.id, run)
  }
  return run
}

// An engine that crashes (rejects instead of returning a Result) still counts as a difference, so a known
// failure can crash without breaking the ratchet.
const engineOutcome = async (program: Program, engine: Engine): Promise<Outcome> => {
  try {
    return await runEngine(program.code, engine)
  } catch (e) {
    return { engineError: "Crash", message: e instanceof Error ? (e.stack ?? e.message) : String(e) }
  }
}

for (const engine of engines) {
  const path = knownFailuresPathFor(engine)
  const known = readKnownFailures(path)
  const differing = new Set<string>()
  let compared = 0

  describe(`differential corpus: ${engine} engine vs V8`, () => {
    it("its known-failures file names only corpus programs", () => {
      if (update) return // the file is about to be rewritten from this run
      const ids = new Set(programs.map((p) => p.id))
      const stale = [...known].filter((id) => !ids.has(id))
      expect(stale, `unknown ids in ${path}`).toEqual([])
    })

    for (const program of programs) {
      it(program.id, async () => {
        const expected = await oracleOutcome(program)
        const actual = await engineOutcome(program, engine)
        compared++
        const same = sameOutcome(actual, expected)
        if (!same) differing.add(program.id)
        if (update) return
        if (known.has(program.id)) {
          if (same) throw new Error(`${program.id} now matches V8 on ${engine}: remove it from ${path}`)
          return
        }
        expect(actual, `${program.id} (${program.file}:${program.line})`).toEqual(expected)
      })
    }

    afterAll(() => {
      if (!update) return
      // A filtered run (-t, a crash midway) would drop entries for programs that never ran.
      if (compared !== programs.length) {
        console.warn(`UPDATE_KNOWN_FAILURES: only ${compared}/${programs.length} ${engine} programs ran; ${path} left unchanged`)
        return
      }
      writeKnownFailures(differing, path)
      console.log(`UPDATE_KNOWN_FAILURES: wrote ${differing.size} ids to ${path}`)
    })
  })
}
