/**
 * The `codemode` command, run as a process on the project's Node against a live server: output, one-line errors
 * on stderr, and the exit codes (0 succeeded, 1 failed run, 2 usage, 3 suspended, 4 service unreachable/refused).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as CliOutput from "effect/cli/CliOutput"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { root } from "../../src/cli/commands.ts"
import { latestMigration, migrationFiles } from "../../src/server/store/postgres/database.ts"
import { yaml } from "../../src/server/openapi.ts"
import { createDatabase, eventually, request, ROOT, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

const exec = promisify(execFile)

const codemode = async (args: Array<string>, env: Record<string, string> = {}) => {
  try {
    const { stdout, stderr } = await exec(process.execPath, ["src/cli/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, CODEMODE_URL: "", CODEMODE_API_KEY: "", ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

/** One line on stderr, no stack, no byte dumps. */
const oneLine = (stderr: string) => {
  const lines = stderr.trim().split("\n")
  expect(lines).toHaveLength(1)
  expect(stderr).not.toMatch(/\n\s+at |Uint8Array|HttpClientError/)
  return lines[0]!
}

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let dir: string
let slowCalls = 0
beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url, env: { CODEMODE_IDLE_SUSPEND_MS: "300" } })
  receiver = await startReceiver((call) => {
    if (call.json.type === "start") return { json: { data: { job: 1 } } }
    if (call.json.type !== "call") return { json: {} }
    // orders.slow answers late the first time (long enough to be suspended), at once after.
    if (call.json.path === "orders.slow") return ++slowCalls === 1 ? { json: { output: 1 }, delayMs: 20_000 } : { json: { output: 2 } }
    return { json: { output: (call.json.input as { n: number }).n * 2 } }
  })
  dir = mkdtempSync(join(tmpdir(), "codemode-cli-"))
  const tool = (mode: string) => ({
    description: `a ${mode} tool`,
    input: { type: "object", properties: { n: { type: "number" } } },
    output: { type: "number" },
    url: receiver.url,
    mode,
  })
  writeFileSync(join(dir, "double.json"), JSON.stringify(tool("plain")))
  writeFileSync(join(dir, "build.json"), JSON.stringify(tool("durable")))
  writeFileSync(join(dir, "slow.json"), JSON.stringify(tool("idempotent")))
  writeFileSync(join(dir, "durable.js"), "const n = await tools.jobs.build({ n: 1 }); return n + 1")
  writeFileSync(join(dir, "ok.js"), "return 6 * 7")
  writeFileSync(join(dir, "throws.js"), "throw new Error('no')")
}, 180_000) // a replica and its program processes start slowly on a loaded machine
afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

// Every step is a new process loading the CLI: seconds each on a loaded machine.
const SLOW = { timeout: 300_000 }

describe("codemode, locally", SLOW, () => {
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

  it("applies migrations with migrate, naming the database", async () => {
    const fresh = await createDatabase()
    try {
      const first = await codemode(["migrate"], { DATABASE_URL: fresh.url })
      expect(first.code).toBe(0)
      expect(first.stderr).toContain(`/${fresh.name}`)
      expect(first.stderr).not.toContain(":postgres@") // never the password
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

  it("prints the OpenAPI document and help", async () => {
    expect((await codemode(["openapi"])).stdout).toBe(yaml())
    const help = await codemode(["runs", "events", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("--follow")
  })

  it("has --help on every command, found by walking the help's subcommand lists", async () => {
    // In this process (a CLI process each is minutes of a loaded machine); the bin's own path below.
    const help = async (path: ReadonlyArray<string>): Promise<string> => {
      let text: string | undefined
      const presenter: CliOutput.Presenter = {
        present: (event) =>
          Effect.sync(() => {
            if (event._tag === "Help") text = CliOutput.defaultFormatter({ colors: false }).formatHelpDoc(event.helpDoc)
          }),
      }
      await Effect.runPromise(
        Command.runWith(root, { version: "0" })([...path, "--help"]).pipe(
          Effect.provide(CliOutput.layerPresenter(presenter)),
          Effect.provide(NodeServices.layer),
        ),
      )
      expect(text, path.join(" ")).toContain(`USAGE\n  ${["codemode", ...path].join(" ")}`)
      return text!
    }
    const helped: Array<string> = []
    const walk = async (path: ReadonlyArray<string>): Promise<void> => {
      helped.push(path.join(" "))
      const list = /\nSUBCOMMANDS\n((?:  \S.*\n?)+)/.exec(await help(path))?.[1] ?? ""
      for (const sub of list.split("\n").map((l) => l.trim().split(/\s+/)[0]).filter((w): w is string => !!w)) await walk([...path, sub])
    }
    await walk([])
    const listed = ["serve", "migrate", "run", "openapi", "runs list", "runs get", "runs wait", "runs events", "runs suspend", "runs resume"]
    listed.push("runs cancel", "calls complete", "calls heartbeat", "tools list", "tools get", "tools put", "tools delete")
    listed.push("keys create", "keys list", "keys revoke")
    for (const command of listed) expect(helped).toContain(command)
    // The bin: help on stdout, nothing on stderr (`serve` says it is starting only when it is), exit 0.
    for (const args of [["--help"], ["serve", "--help"]]) {
      const r = await codemode(args)
      expect(r.code).toBe(0)
      expect(r.stderr).toBe("")
      expect(r.stdout).toContain("USAGE")
    }
  })

  it("says what is wrong with a command line in one line and exits 2", async () => {
    for (const args of [["frobnicate"], ["runs", "get"], ["run", join(ROOT, "no-such-file.js")], ["runs", "list", "--limit", "x"]]) {
      const r = await codemode(args)
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.stdout).toBe("")
    }
    const missing = await codemode(["run", "no-such-file.js"])
    expect(oneLine(missing.stderr)).toBe("codemode: cannot read no-such-file.js: no such file")
    expect((await codemode([])).code).toBe(2)
  })

  it("keys: refuses to guess a database, then creates, lists and revokes on the one named", async () => {
    const none = await codemode(["keys", "list"], { DATABASE_URL: "" })
    expect(none.code).toBe(2)
    expect(oneLine(none.stderr)).toContain("--embedded")
    const fresh = await createDatabase()
    try {
      const env = { DATABASE_URL: fresh.url }
      const made = await codemode(["keys", "create", "--tenant", "acme", "--json"], env)
      expect(made.code).toBe(0)
      expect(made.stderr).toContain(`/${fresh.name}`)
      const key = JSON.parse(made.stdout) as { id: string; tenant: string; key: string }
      expect(key.tenant).toBe("acme")
      const list = await codemode(["keys", "list"], env)
      expect(list.stdout).toMatch(new RegExp(`^${key.id}\\tacme\\t-\\t.*\\tvalid$`, "m"))
      expect(list.stdout).not.toContain(key.key)
      expect((await codemode(["keys", "revoke", key.id], env)).code).toBe(0)
      const again = await codemode(["keys", "revoke", key.id], env)
      expect(again.code).toBe(2)
      expect(again.stdout).toBe("")
      expect(again.stderr).toBe(`codemode keys: database postgres://postgres@${new URL(fresh.url).host}/${fresh.name}\ncodemode: no valid key with id ${key.id}\n`)
    } finally {
      await fresh.drop()
    }
  })

  it("keys --embedded: without DATABASE_URL, the embedded database in PGLITE_DIR, named", async () => {
    const env = { DATABASE_URL: "", PGLITE_DIR: join(dir, "pglite") }
    const made = await codemode(["keys", "create", "--tenant", "local", "--embedded", "--json"], env)
    expect(made.code).toBe(0)
    expect(made.stderr).toBe(`codemode keys: embedded database in ${join(dir, "pglite")} (set DATABASE_URL for PostgreSQL)\n`)
    const key = JSON.parse(made.stdout) as { id: string; tenant: string }
    const list = await codemode(["keys", "list", "--embedded"], env)
    expect(list.code).toBe(0)
    expect(list.stdout).toMatch(new RegExp(`^${key.id}\\tlocal\\t-\\t.*\\tvalid$`, "m"))
  }, 600_000) // a new embedded database: initdb and every migration in WASM, minutes on a loaded machine
})

describe("codemode, against a service", SLOW, () => {
  const remote = (args: Array<string>) => codemode(args, { CODEMODE_URL: server.url })

  it("exits 4 with one line when the service cannot be reached; --verbose adds the cause", async () => {
    const r = await codemode(["runs", "list", "--url", "http://127.0.0.1:9"])
    expect(r.code).toBe(4)
    const line = oneLine(r.stderr)
    expect(line).toMatch(/^codemode: cannot reach GET http:\/\/127\.0\.0\.1:9\/v1\/runs/)
    const verbose = await codemode(["runs", "list", "--url", "http://127.0.0.1:9", "--verbose"])
    expect(verbose.code).toBe(4)
    const [first, ...cause] = verbose.stderr.trim().split("\n")
    expect(first).toBe(line)
    expect(cause.join("\n")).toMatch(/HttpClientError[\s\S]*\n\s+at /) // the whole cause, with its stack
  })

  it("runs a program with --url: 0 succeeded, 1 failed", async () => {
    const ok = await codemode(["run", join(dir, "ok.js"), "--url", server.url, "--json"])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: "succeeded", result: { ok: true, value: 42 } })
    const failed = await codemode(["run", join(dir, "throws.js"), "--url", server.url])
    expect(failed.code).toBe(1)
    expect(failed.stdout).toMatch(/\tfailed\nExecutionFailure: Error: no at 1:7\n$/)
  })

  it("manages tools: put, list, get, delete; a missing one exits 4", async () => {
    const put = await remote(["tools", "put", "math.double", "--file", join(dir, "double.json"), "--json"])
    expect(put.code).toBe(0)
    expect(JSON.parse(put.stdout)).toMatchObject({ path: "math.double", secret: expect.stringMatching(/^whsec_/) })
    expect((await remote(["tools", "list"])).stdout).toContain("math.double\tplain\ta plain tool")
    const get = await remote(["tools", "get", "math.double"])
    expect(get.code).toBe(0)
    expect(get.stdout).toContain("math.double")
    expect(get.stdout).toMatch(/double\(/)
    const found = await remote(["tools", "search", "double", "--json"])
    expect(found.code).toBe(0)
    expect(JSON.parse(found.stdout).results[0]).toMatchObject({ path: "math.double", description: "a plain tool", score: 1 })
    expect((await remote(["tools", "search", "nothing like it"])).stdout).toBe("no tool matches\n")
    expect((await remote(["tools", "delete", "math.double"])).code).toBe(0)
    const gone = await remote(["tools", "get", "math.double"])
    expect(gone.code).toBe(4)
    expect(oneLine(gone.stderr)).toBe("codemode: no tool math.double")
    const bad = await remote(["tools", "put", "x", "--file", join(dir, "nope.json")])
    expect(bad.code).toBe(2)
  })

  it("a run waiting on a durable call exits 3; events, calls complete and runs wait finish it", async () => {
    expect((await remote(["tools", "put", "jobs.build", "--file", join(dir, "build.json")])).code).toBe(0)
    const r = await remote(["run", join(dir, "durable.js"), "--url", server.url, "--id", "cli-durable"])
    expect(r.stderr).toBe("")
    expect(r.code).toBe(3)
    expect(r.stdout).toMatch(/^cli-durable\tsuspended\npending call jobs\.build \S+ \(started\)/)
    expect((await remote(["runs", "get", "cli-durable"])).code).toBe(3)
    const events = await remote(["runs", "events", "cli-durable", "--json"])
    expect(events.code).toBe(0)
    const types = events.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { event: string }).event)
    expect(types.slice(0, 2)).toStrictEqual(["run.created", "call.started"])
    expect(types).toContain("run.suspended")

    const key = receiver.calls.find((c) => c.json.type === "start")!.json.key
    const done = await remote(["calls", "complete", key, "--output", "41"])
    expect(done.code).toBe(0)
    expect(done.stdout).toBe(`${key}\tok\n`)
    const waited = await remote(["runs", "wait", "cli-durable", "--json"])
    expect(waited.code).toBe(0)
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: "succeeded", result: { value: 42 } })
    // On an ended run --follow prints the history and ends by itself.
    const followed = await remote(["runs", "events", "cli-durable", "--follow"])
    expect(followed.code).toBe(0)
    expect(followed.stdout.trim().split("\n").at(-1)).toMatch(/\trun\.succeeded\t/)
    const again = await remote(["calls", "heartbeat", key])
    expect(again.stdout).toBe(`${key}\tsettled\n`)
  })

  it("suspends, resumes and cancels runs; list shows them", async () => {
    expect((await remote(["tools", "put", "orders.slow", "--file", join(dir, "slow.json")])).code).toBe(0)
    expect((await remote(["tools", "put", "jobs.build", "--file", join(dir, "build.json")])).code).toBe(0)
    const code = "return await tools.orders.slow({ n: 1 })"
    expect((await request(server.url, "POST", "/v1/runs", { id: "cli-slow", code, wait: false })).status).toBe(202)
    await eventually(async () => (receiver.calls.some((c) => c.json.path === "orders.slow") ? true : undefined))
    const suspended = await remote(["runs", "suspend", "cli-slow"])
    expect(suspended.stderr).toBe("")
    expect(suspended.code).toBe(0)
    expect(suspended.stdout).toMatch(/^cli-slow\tsuspended/)
    expect((await remote(["runs", "get", "cli-slow"])).code).toBe(3)
    const resumed = await remote(["runs", "resume", "cli-slow", "--json"])
    expect(resumed.code).toBe(0)
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: "succeeded", result: { value: 2 } })
    expect((await remote(["runs", "resume", "cli-slow"])).code).toBe(4) // not suspended: 409
    const kept = await remote(["runs", "checkpoints", "cli-slow", "--json"])
    expect(kept.code).toBe(0)
    expect(JSON.parse(kept.stdout)).toMatchObject({ runId: "cli-slow", checkpoints: expect.any(Array) })
    expect((await remote(["runs", "checkpoints", "cli-missing"])).code).toBe(4)
    // cli-slow's first kept state was taken as its one call was sent: a fork answers that call instead of calling
    // orders.slow. (Its latest may have been taken once the answer had reached the program.)
    const at = (JSON.parse(kept.stdout) as { checkpoints: Array<{ seq: number }> }).checkpoints[0]!.seq
    const sentBefore = receiver.calls.length
    const forked = await remote(["runs", "fork", "cli-slow", "--at", String(at), "--outcomes", '{"cli-slow:1":{"ok":true,"value":40}}', "--as", "cli-fork"])
    expect(forked.stderr).toBe("")
    expect(forked.code).toBe(0)
    expect(forked.stdout).toBe(`cli-fork\tsucceeded\nforked from cli-slow at checkpoint ${at}\n40\n`)
    const failing = await remote(["runs", "fork", "cli-slow", "--at", String(at), "--outcomes", '{"cli-slow:1":{"ok":false,"error":{"message":"down"}}}'])
    expect(failing.code).toBe(1)
    expect(failing.stdout).toMatch(/down/)
    expect(receiver.calls.length).toBe(sentBefore)
    expect((await remote(["runs", "fork", "cli-slow", "--outcomes", "nope"])).code).toBe(2)
    expect((await remote(["runs", "fork", "cli-missing"])).code).toBe(4)

    const r = await remote(["run", join(dir, "durable.js"), "--url", server.url, "--id", "cli-cancel"])
    expect(r.code).toBe(3)
    expect((await remote(["runs", "cancel", "cli-cancel"])).code).toBe(0)
    const cancelled = await remote(["runs", "get", "cli-cancel"])
    expect(cancelled.code).toBe(1)
    expect(cancelled.stdout).toMatch(/^cli-cancel\tcancelled/)

    const list = await remote(["runs", "list", "--status", "succeeded", "--json"])
    expect(list.code).toBe(0)
    const ids = (JSON.parse(list.stdout) as { runs: Array<{ id: string }> }).runs.map((x) => x.id)
    expect(ids).toContain("cli-slow")
    expect(ids).not.toContain("cli-cancel")
    const byTool = await remote(["runs", "list", "--tool", "jobs.build", "--since", "2000-01-01T00:00:00Z", "--until", "2100-01-01"])
    expect(byTool.code).toBe(0)
    expect(byTool.stdout.trim().split("\n").map((l) => l.split("\t")[0])).toStrictEqual(["cli-cancel", "cli-durable"])
    const soon = await remote(["runs", "list", "--since", "soon"])
    expect(soon.code).toBe(2)
    expect(soon.stderr).toContain(`Invalid value for flag --since: "soon"`)
    const missing = await remote(["runs", "get", "no-such-run"])
    expect(missing.code).toBe(4)
    expect(oneLine(missing.stderr)).toBe("codemode: No run with id no-such-run (404 RunNotFound)")
  })
})
