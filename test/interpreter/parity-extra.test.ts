/**
 * Parity beyond the corpus: the programs of programs.ts give the same Result on both engines — value, error kind,
 * message and location, logs and warnings.
 */
import { describe, expect, it } from "vitest"
import type { Result } from "../../src/host/result.ts"
import { runEngineResult } from "../differential/harness.ts"
import { programs } from "./programs.ts"

const withoutCalls = (r: Result): unknown => ({ ...r, toolCalls: [] })

describe("parity beyond the corpus", () => {
  for (const [name, code] of Object.entries(programs)) {
    it(name, async () => {
      const legacy = withoutCalls(await runEngineResult(code, "legacy"))
      const vm = withoutCalls(await runEngineResult(code, "vm"))
      expect(legacy).toEqual(vm)
    })
  }
})
