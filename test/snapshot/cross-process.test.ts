/**
 * Issue 5's "done when": a run with three durable calls inside `Promise.all` is suspended, its bytes written to a
 * file and resumed in a separate Node process, which gets the right result — each `start` called exactly once (in
 * the first process), `wait` called again by the resume, and no `cancel` anywhere.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Fiber } from "effect"
import { CodeMode } from "../../src/index.ts"
import { counts, jobsTool } from "./fixtures/durable-jobs.ts"

describe("suspend here, resume in another process", () => {
  it.live("three durable calls in Promise.all resume in a separate Node process", () =>
    Effect.gen(function* () {
      const runtime = CodeMode.make({ tools: { jobs: { run: jobsTool(false) } }, engine: "vm" })
      const program = runtime.program(
        `const results = await Promise.all([1, 2, 3].map((n) => tools.jobs.run({ n })))
         return { results, total: results.reduce((a, b) => a + b, 0) }`,
        undefined,
        { runId: "cross-1" },
      )
      const run = yield* Effect.forkChild(program.run())
      // Every `start` has returned (its data is saved) once each call waits.
      while (counts.wait < 3) yield* Effect.sleep(1)
      const suspended = yield* program.suspend()
      assert.strictEqual(yield* Fiber.join(run), suspended)
      assert.strictEqual(suspended.ok, "suspended")
      if (suspended.ok !== "suspended") return
      assert.deepStrictEqual(counts, { start: 3, wait: 3, cancel: 0 })

      const dir = mkdtempSync(join(tmpdir(), "codemode-snapshot-"))
      try {
        const file = join(dir, "run.snapshot")
        writeFileSync(file, CodeMode.toBytes(suspended.state))
        const child = spawnSync(process.execPath, [join(import.meta.dirname, "fixtures", "resume-child.ts"), file], {
          encoding: "utf8",
          timeout: 60_000,
        })
        assert.strictEqual(child.status, 0, child.stderr)
        const { outcome, counts: childCounts } = JSON.parse(child.stdout) as { outcome: CodeMode.Result; counts: typeof counts }
        assert.deepStrictEqual(outcome.ok === true && outcome.value, { results: [10, 20, 30], total: 60 })
        assert.deepStrictEqual(outcome.toolCalls.map((c) => c.key), ["cross-1:1", "cross-1:2", "cross-1:3"])
        assert.deepStrictEqual(childCounts, { start: 0, wait: 3, cancel: 0 })
        assert.deepStrictEqual(counts, { start: 3, wait: 3, cancel: 0 })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }))
})
