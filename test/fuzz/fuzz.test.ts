/**
 * A bounded run of the differential fuzzer from a fixed seed (see fuzz.ts; `npm run fuzz` runs it for longer from
 * a random seed). It fails with the shrunk program on any difference from V8 in any mode.
 */
import { describe, expect, it } from "vitest"
import { roundtrip } from "../engines.ts"
import { describeFailure, fuzz } from "./fuzz.ts"

const SEED = 20261205
const PROGRAMS = 15

describe("differential fuzzer", () => {
  it(`${PROGRAMS} programs from seed ${SEED} agree with V8 on every engine`, { timeout: 180_000 }, async () => {
    // The fuzzer makes its own round-trip runtime; under CODEMODE_ROUNDTRIP the legacy engine is left out as elsewhere.
    const modes = roundtrip ? { modes: ["vm", "roundtrip"] as const } : {}
    const { stats, failure } = await fuzz({ seed: SEED, programs: PROGRAMS, ...modes })
    expect(failure === undefined ? "" : describeFailure(failure)).toBe("")
    expect(stats.programs).toBe(PROGRAMS)
    // A bounded run that compares nothing would pass vacuously.
    expect(stats.same).toBeGreaterThan(PROGRAMS / 2)
  })
})
