/**
 * openapi.yaml passes a standard linter's recommended rules (issue 15): Redocly CLI, with no errors. Telemetry and
 * update checks are off: the test must not reach the network.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { ROOT } from "./helpers.ts"

describe("openapi.yaml", () => {
  it("has no errors under Redocly's recommended rules", async () => {
    const run = promisify(execFile)
    const result = await run(`${ROOT}/node_modules/.bin/redocly`, ["lint", "openapi.yaml", "--format=json"], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? "", stderr: e.stderr ?? "" }))
    const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ severity: string; ruleId: string; message: string }> }
    expect(report.problems.filter((p) => p.severity === "error")).toStrictEqual([])
    expect(report.totals.errors).toBe(0)
  }, 60_000)
})
