/**
 * The differential corpus: every program runs on V8 (node:vm) and on the bytecode VM, and the two outcomes must
 * be equal, except for the ids listed in known-failures.txt, which must still differ (see known-failures.ts).
 * UPDATE_KNOWN_FAILURES=1 records the current differences instead of failing on them.
 */
import { afterAll, describe, expect, it } from "vitest"
import { loadCorpus, runEngine, runOracle, sameOutcome, type Outcome, type Program } from "./harness.ts"
import { knownFailuresPath, readKnownFailures, writeKnownFailures } from "./known-failures.ts"

const programs = loadCorpus()
const known = readKnownFailures()
const update = process.env["UPDATE_KNOWN_FAILURES"] === "1"

const differing = new Set<string>()
let compared = 0

const oracleOutcome = async (program: Program): Promise<Outcome> => {
  try {
    return await runOracle(program.code)
  } catch (e) {
    throw new Error(`${program.id} (${program.file}:${program.line}) is not a valid corpus program: ${String(e)}`)
  }
}

// An engine that crashes (rejects instead of returning a Result) still counts as a difference, so a known
// failure can crash without breaking the ratchet.
const engineOutcome = async (program: Program): Promise<Outcome> => {
  try {
    return await runEngine(program.code, "vm")
  } catch (e) {
    return { engineError: "Crash", message: e instanceof Error ? (e.stack ?? e.message) : String(e) }
  }
}

describe("differential corpus: vm engine vs V8", () => {
  it("known-failures.txt names only corpus programs", () => {
    if (update) return // the file is about to be rewritten from this run
    const ids = new Set(programs.map((p) => p.id))
    const stale = [...known].filter((id) => !ids.has(id))
    expect(stale, `unknown ids in ${knownFailuresPath}`).toEqual([])
  })

  for (const program of programs) {
    it(program.id, async () => {
      const expected = await oracleOutcome(program)
      const actual = await engineOutcome(program)
      compared++
      const same = sameOutcome(actual, expected)
      if (!same) differing.add(program.id)
      if (update) return
      if (known.has(program.id)) {
        if (same) throw new Error(`${program.id} now matches V8: remove it from known-failures.txt`)
        return
      }
      expect(actual, `${program.id} (${program.file}:${program.line})`).toEqual(expected)
    })
  }

  afterAll(() => {
    if (!update) return
    // A filtered run (-t, a crash midway) would drop entries for programs that never ran.
    if (compared !== programs.length) {
      console.warn(`UPDATE_KNOWN_FAILURES: only ${compared}/${programs.length} programs ran; file left unchanged`)
      return
    }
    writeKnownFailures(differing)
    console.log(`UPDATE_KNOWN_FAILURES: wrote ${differing.size} ids to ${knownFailuresPath}`)
  })
})
