/**
 * The package as another project gets it: `npm pack` (which builds dist/ through `prepack`), installed from the
 * tarball into a temporary project, then used from plain JavaScript and from TypeScript (`codemode` and
 * `codemode/client`), and its `codemode` bin serving a live server that the Promise client and the CLI talk to,
 * with the run inspector's files.
 */
import { execFile, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, eventually, ROOT } from "../service/helpers.ts"

const exec = promisify(execFile)
const SLOW = 600_000
const TYPES_NODE = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> })
  .devDependencies["@types/node"]!

let dir: string
let project: string
let db: Awaited<ReturnType<typeof createDatabase>>
// npm, its scripts and the bin run on the project's Node (the directory of process.execPath leads PATH).
const env = () => ({ ...process.env, PATH: `${join(process.execPath, "..")}:${process.env["PATH"]}` })
const node = (args: Array<string>, extra: Record<string, string> = {}) =>
  exec(process.execPath, args, { cwd: project, env: { ...env(), ...extra } })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "codemode-pack-"))
  project = join(dir, "app")
  await exec("npm", ["pack", "--pack-destination", dir, "--silent"], { cwd: ROOT, env: env(), maxBuffer: 1 << 26 })
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!
  await exec("mkdir", [project])
  writeFileSync(
    join(project, "package.json"),
    // A TypeScript project on Node has Node's types (the declarations mention Buffer).
    JSON.stringify({
      name: "app",
      private: true,
      type: "module",
      dependencies: { codemode: `file:${join(dir, tarball)}`, "@types/node": TYPES_NODE },
    }),
  )
  await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent"], { cwd: project, env: env() })
  db = await createDatabase()
}, SLOW)
afterAll(async () => {
  await db?.drop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const QUICK_START = `
import { CodeMode, Tool } from "codemode"
import { Effect, Schema } from "effect"

const lookupOrder = Tool.make({
  description: "Look up an order by ID",
  input: Schema.Struct({ id: Schema.String }),
  output: Schema.Struct({ id: Schema.String, status: Schema.String }),
  execute: ({ id }) => Effect.succeed({ id, status: "open" }),
})
const runtime = CodeMode.make({ tools: { orders: { lookup: lookupOrder } } })
const result = await Effect.runPromise(
  runtime.execute(\`
    const order = await tools.orders.lookup({ id: "order_42" })
    return { id: order.id, needsAttention: order.status !== "complete" }
  \`),
)
console.log(JSON.stringify(result))
`

describe("the packed package", () => {
  it("ships compiled JavaScript, declarations and source maps, no tests", () => {
    const dist = join(project, "node_modules/codemode/dist/src")
    const files = readdirSync(dist, { recursive: true }) as Array<string>
    for (const f of ["index.js", "index.d.ts", "index.js.map", "client/index.js", "client/index.d.ts", "cli/main.js", "ui/index.html", "ui/app.js"]) {
      expect(files).toContain(f)
    }
    expect(readdirSync(join(project, "node_modules/codemode"))).not.toContain("test")
  })

  it("runs the README's Quick Start from plain JavaScript", async () => {
    writeFileSync(join(project, "quick-start.mjs"), QUICK_START)
    const { stdout } = await node(["quick-start.mjs"])
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, value: { id: "order_42", needsAttention: true } })
  }, SLOW)

  it("loads with require() from CommonJS", async () => {
    // The one entry turns on the compile cache and loads the library without awaiting, so require() loads it too.
    writeFileSync(
      join(project, "quick-start.cjs"),
      `const { CodeMode } = require("codemode")
const { Client } = require("codemode/client")
const { Effect } = require("effect")
Effect.runPromise(CodeMode.make({}).execute("return [1, 2].map((n) => n * 3)")).then((r) =>
  console.log(JSON.stringify({ result: r, client: typeof Client })),
)
`,
    )
    const { stdout } = await node(["quick-start.cjs"])
    expect(JSON.parse(stdout)).toMatchObject({ result: { ok: true, value: [3, 6] }, client: "function" })
  }, SLOW)

  it("keeps a code cache of the library in Node's compile cache folder, written once and then read", async () => {
    writeFileSync(join(project, "one-plus-one.mjs"), `import { CodeMode } from "codemode"
import { Effect } from "effect"
console.log(JSON.stringify(await Effect.runPromise(CodeMode.make({}).execute("1 + 1"))))
`)
    const cache = mkdtempSync(join(tmpdir(), "codemode-pack-cache-"))
    const codeCache = () => {
      const files = (readdirSync(cache, { recursive: true }) as Array<string>).filter((f) => /codemode-core-\w+\.bin$/.test(f))
      expect(files).toHaveLength(1)
      return statSync(join(cache, files[0]!))
    }
    try {
      for (let start = 0; start < 2; start++) {
        const { stdout } = await node(["one-plus-one.mjs"], { NODE_COMPILE_CACHE: cache })
        expect(JSON.parse(stdout)).toMatchObject({ ok: true, value: 2 })
      }
      const written = codeCache()
      // V8 accepted the cache: a start that finds none, or one it refuses, writes a new one when it exits.
      await node(["one-plus-one.mjs"], { NODE_COMPILE_CACHE: cache })
      expect(codeCache().mtimeMs).toBe(written.mtimeMs)
      expect(written.size).toBeGreaterThan(100_000)
    } finally {
      rmSync(cache, { recursive: true, force: true })
    }
  }, SLOW)

  it("primes the code cache with a first run on each engine, whatever the process that writes it did", async () => {
    // A cache holds only what its process compiled: written by a start that ran nothing, or ran one engine, it would
    // leave the first run's code (or the other engine's) to be compiled from the text at every later start.
    const cacheSize = async (program: string): Promise<number> => {
      const cache = mkdtempSync(join(tmpdir(), "codemode-pack-cache-"))
      try {
        await node(["--input-type=module", "-e", program], { NODE_COMPILE_CACHE: cache })
        const files = (readdirSync(cache, { recursive: true }) as Array<string>).filter((f) => /codemode-core-\w+\.bin$/.test(f))
        expect(files).toHaveLength(1)
        return statSync(join(cache, files[0]!)).size
      } finally {
        rmSync(cache, { recursive: true, force: true })
      }
    }
    const run = (engine: string) => `import { CodeMode } from "codemode"
import { Effect } from "effect"
await Effect.runPromise(CodeMode.make({ engine: "${engine}" }).execute("1 + 1"))`
    const loadOnly = await cacheSize(`import "codemode"`)
    for (const engine of ["legacy", "vm"]) expect(loadOnly).toBeGreaterThan(0.97 * (await cacheSize(run(engine))))
  }, SLOW)

  it("type-checks and runs from TypeScript", async () => {
    writeFileSync(
      join(project, "check.ts"),
      `import { CodeMode } from "codemode"
import { Client, ClientError } from "codemode/client"
import { Effect } from "effect"
const result: CodeMode.Result = await Effect.runPromise(CodeMode.make({}).execute("1 + 1"))
const client: Client = new Client({ baseUrl: "http://127.0.0.1:9" })
const failure = await client.health().then(() => undefined, (e: unknown) => e)
console.log(JSON.stringify({ value: result.ok ? result.value : null, unreachable: failure instanceof ClientError && failure.kind }))
`,
    )
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        // skipLibCheck off: the shipped declarations must check too.
        compilerOptions: { target: "es2024", module: "nodenext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] },
        files: ["check.ts"],
      }),
    )
    await exec(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: project, env: env() })
    const { stdout } = await node(["check.ts"])
    expect(JSON.parse(stdout)).toStrictEqual({ value: 2, unreachable: "Unreachable" })
  }, SLOW)

  it("serves with its bin, and the Promise client and the CLI talk to it", async () => {
    const server = spawn(process.execPath, [join(project, "node_modules/.bin/codemode"), "serve"], {
      cwd: project,
      env: { ...env(), DATABASE_URL: db.url, PORT: "0", HOST: "127.0.0.1", CODEMODE_SNAPSHOT_KEY: "pack-test-snapshot-key-32-bytes." },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let out = ""
    server.stdout.on("data", (c: Buffer) => (out += c.toString()))
    server.stderr.on("data", (c: Buffer) => (out += c.toString()))
    const exited = new Promise<number | null>((ok) => server.once("exit", (code) => ok(code)))
    try {
      expect(await eventually(async () => (out.includes("codemode starting") ? true : undefined), 30_000)).toBe(true)
      const url = await eventually(async () => /codemode listening on (http:\/\/\S+)/.exec(out)?.[1], 120_000, 100).catch(() => {
        throw new Error(`the server did not listen:\n${out}`)
      })
      writeFileSync(
        join(project, "client.mjs"),
        `import { Client } from "codemode/client"
const client = new Client({ baseUrl: process.argv[2] })
const run = await client.runs.create({ payload: { code: "return [1, 2, 3].map((n) => n * 2)", id: "packed" } })
console.log(JSON.stringify(run))
`,
      )
      const { stdout } = await node(["client.mjs", url])
      expect(JSON.parse(stdout)).toMatchObject({ id: "packed", status: "succeeded", result: { ok: true, value: [2, 4, 6] } })
      const cli = await exec(process.execPath, [join(project, "node_modules/.bin/codemode"), "runs", "get", "packed", "--url", url, "--json"], {
        cwd: project,
        env: env(),
      })
      expect(JSON.parse(cli.stdout)).toMatchObject({ id: "packed", status: "succeeded" })
      // The run inspector, from the compiled build and the installed Preact.
      for (const path of ["/ui", "/ui/app.js", "/ui/vendor/preact.mjs", "/ui/vendor/hooks.mjs", "/ui/vendor/htm.mjs"]) {
        expect((await fetch(url + path)).status, path).toBe(200)
      }
    } finally {
      server.kill("SIGTERM")
      await exited
    }
  }, SLOW)
})
