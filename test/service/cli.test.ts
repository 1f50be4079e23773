/** The `codemode` command, run as a process on the project's Node. */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { latestMigration, migrationFiles } from "../../src/server/store/postgres/database.ts"
import { yaml } from "../../src/server/openapi.ts"
import { createDatabase, ROOT, sqlOn, startReplica, type Replica } from "./helpers.ts"

const exec = promisify(execFile)

const codemode = async (args: Array<string>, env: Record<string, string> = {}) => {
  try {
    const { stdout, stderr } = await exec(process.execPath, ["src/cli/main.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
})
afterAll(async () => {
  await server?.close()
  await db?.drop()
})

describe("codemode", () => {
  it("runs a program locally against a tools file", async () => {
    const r = await codemode(["run", "test/service/fixtures/double.js", "--tools", "test/service/fixtures/tools.ts"])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, value: 42, toolCalls: [{ path: "tools.math.double" }] })
  })

  it("exits 1 with the Result of a failed program", async () => {
    const r = await codemode(["run", "test/service/fixtures/tools.ts"]) // TypeScript with an import: not a program
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).ok).toBe(false)
  })

  it("runs a program on a server with --url", async () => {
    const r = await codemode(["run", "test/service/fixtures/double.js", "--url", server.url])
    expect(r.code).toBe(1) // no tools registered there: the run fails, and says why
    const run = JSON.parse(r.stdout)
    expect(run.status).toBe("failed")
    expect(run.result.ok).toBe(false)
  })

  it("applies migrations with migrate", async () => {
    const fresh = await createDatabase()
    try {
      const first = await codemode(["migrate"], { DATABASE_URL: fresh.url })
      expect(first.code).toBe(0)
      const files = migrationFiles()
      expect(first.stdout).toBe(files.map(([id, name]) => `applied ${String(id).padStart(4, "0")}_${name}\n`).join(""))
      expect((await codemode(["migrate"], { DATABASE_URL: fresh.url })).stdout).toBe(
        `database is up to date (migration ${latestMigration()})\n`,
      )
      expect(await sqlOn(fresh.url, "SELECT count(*)::int AS n FROM runs")).toStrictEqual([{ n: 0 }])
    } finally {
      await fresh.drop()
    }
  })

  it("prints the OpenAPI document, and usage for anything else", async () => {
    expect((await codemode(["openapi"])).stdout).toBe(yaml())
    const bad = await codemode(["frobnicate"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("unknown command frobnicate")
    expect((await codemode(["help"])).stdout).toContain("usage: codemode")
  })
})
