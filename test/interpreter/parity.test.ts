/**
 * Parity: every program of the differential corpus runs on both engines, and the two `CodeMode.Result`s must be
 * identical — value, error kind, message and location, logs, warnings and tool calls (their keys without the
 * per-run id). Where V8 is the reference for values, this test makes the tree-walker and the VM one language
 * down to the diagnostics.
 */
import { describe, expect, it } from "vitest"
import type { Result } from "../../src/host/result.ts"
import { loadCorpus, runEngineResult } from "../differential/harness.ts"

const programs = loadCorpus()

/** A Result with the run id left out of tool-call keys (`<runId>:<callId>`). */
const comparable = (r: Result): unknown => ({
  ...r,
  toolCalls: r.toolCalls.map((c) => ({ ...c, key: c.key.slice(c.key.indexOf(":") + 1) })),
})

describe("parity: legacy and vm give the same Result for every corpus program", () => {
  for (const program of programs) {
    it(program.id, async () => {
      const legacy = comparable(await runEngineResult(program.code, "legacy"))
      const vm = comparable(await runEngineResult(program.code, "vm"))
      expect(legacy, `${program.id} (${program.file}:${program.line})`).toEqual(vm)
    })
  }
})
