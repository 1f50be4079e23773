/**
 * Issue 13's "done when": a change confined to src/server leaves stored snapshots resumable. A run is suspended
 * here; a copy of this checkout with a service file edited (a deploy of the service alone) resumes its bytes in a
 * separate Node process, while a copy with an engine file edited refuses them as another build's.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Fiber } from "effect"
import { CodeMode } from "../../src/index.ts"
import { counts, jobsTool } from "./fixtures/durable-jobs.ts"

const ROOT = join(import.meta.dirname, "..", "..")

/** Resumes `bytes` in a child process run from a copy of the checkout with `edited` (under src/) changed. */
const resumeInCopy = (bytes: Uint8Array, edited: string): { status: number | null; stdout: string; stderr: string } => {
  const dir = mkdtempSync(join(tmpdir(), "codemode-deploy-"))
  try {
    cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true })
    cpSync(join(ROOT, "test", "snapshot", "fixtures"), join(dir, "test", "snapshot", "fixtures"), { recursive: true })
    cpSync(join(ROOT, "package.json"), join(dir, "package.json"))
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir")
    appendFileSync(join(dir, "src", edited), "\n// changed by a deploy\n")
    const file = join(dir, "run.snapshot")
    writeFileSync(file, bytes)
    const child = spawnSync(process.execPath, [join(dir, "test", "snapshot", "fixtures", "resume-child.ts"), file], { encoding: "utf8", timeout: 60_000 })
    return { status: child.status, stdout: child.stdout, stderr: child.stderr }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe("a deploy of the service alone", () => {
  it.live("resumes the states the previous build stored, and an engine change refuses them", () =>
    Effect.gen(function* () {
      const runtime = CodeMode.make({ tools: { jobs: { run: jobsTool(false) } }, engine: "vm" })
      const program = runtime.program(`const n = await tools.jobs.run({ n: 4 }); return n + 1`, undefined, { runId: "deploy-1" })
      const run = yield* Effect.forkChild(program.run())
      while (counts.wait < 1) yield* Effect.sleep(1)
      const suspended = yield* program.suspend()
      yield* Fiber.join(run)
      if (suspended.ok !== "suspended") return assert.fail("the run was not suspended")
      const bytes = CodeMode.toBytes(suspended.state)

      const serverFile = readdirSync(join(ROOT, "src", "server")).find((f) => f.endsWith(".ts"))!
      const served = resumeInCopy(bytes, join("server", serverFile))
      assert.strictEqual(served.status, 0, served.stderr)
      const { outcome } = JSON.parse(served.stdout) as { outcome: CodeMode.Result }
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 41)

      const engine = resumeInCopy(bytes, join("vm", "machine.ts"))
      assert.notStrictEqual(engine.status, 0)
      assert.match(engine.stderr, /another build of codemode/)
    }))
})
