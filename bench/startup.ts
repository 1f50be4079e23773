/**
 * `npm run bench -- startup` (or `node bench/startup.ts`): how long `codemode serve` takes to start, as medians of
 * BENCH_STARTS (3) starts each: until its first line (it logs before loading anything heavy), until it listens,
 * and until `/health` answers — the first answer a client can get — and the CPU time the server's process and
 * its program processes had used by then (from /proc, on Linux). A start is CPU-bound, so on a shared machine the
 * CPU time is the figure that compares across runs; the wall times say what a user waited. Cases: the TypeScript
 * sources (`src/cli/main.ts`, what `npm start` runs) and the compiled build (`dist/`, what the package ships;
 * built first when missing), each on an embedded
 * database that already exists and on one it must create, and on Postgres when DATABASE_URL names a server (a
 * fresh database per start, dropped after). Plus the cost of importing the library alone (`import("codemode")`),
 * which is where module loading shows. The machine is shared: compare cases within one run, not across runs.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const STARTS = Number(process.env["BENCH_STARTS"] ?? 3)

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

interface Timing {
  readonly firstLine: number
  readonly listening: number
  readonly health: number
  /** CPU ms of the server's process, and of it with its children (NaN where /proc is missing). */
  readonly cpu: number
  readonly cpuAll: number
}

/** utime + stime of a process, and its parent's pid, from /proc/PID/stat (after the command's closing paren). */
const stat = (pid: number): { cpu: number; parent: number } | undefined => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return { cpu: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS, parent: Number(fields[1]) }
  } catch {
    return undefined
  }
}
// USER_HZ: 100 on every Linux Node runs on.
const CLOCK_TICKS = 100

/** CPU ms of `pid` alone and with its living children (the program processes). */
const cpuOf = (pid: number): { cpu: number; cpuAll: number } => {
  const own = stat(pid)?.cpu ?? NaN
  let all = own
  for (const entry of existsSync("/proc") ? readdirSync("/proc") : []) {
    if (!/^\d+$/.test(entry)) continue
    const s = stat(Number(entry))
    if (s?.parent === pid) all += s.cpu
  }
  return { cpu: own, cpuAll: all }
}

/** Starts a server, times its first line, its listening line and its first `/health` 200, then stops it. */
const start = (entry: string, env: Record<string, string>): Promise<Timing> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [entry, "serve"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let out = ""
    let firstLine: number | undefined
    let listening: number | undefined
    const onData = (chunk: Buffer) => {
      firstLine ??= performance.now() - t0
      out += chunk.toString()
      const url = /codemode listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url === undefined || listening !== undefined) return
      listening = performance.now() - t0
      const poll = (): void =>
        void fetch(`${url}/health`).then(
          (res) => (res.ok ? done() : setTimeout(poll, 5)),
          () => setTimeout(poll, 5),
        )
      poll()
    }
    const done = () => {
      const health = performance.now() - t0
      const cpu = cpuOf(child.pid!)
      child.once("exit", () => resolve({ firstLine: firstLine!, listening: listening!, health, ...cpu }))
      child.kill("SIGTERM")
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => {
      if (listening === undefined) reject(new Error(`the server exited (${code}) before listening:\n${out}`))
    })
  })

const measure = async (label: string, entry: string, env: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>) => {
  const timings: Array<Timing> = []
  for (let i = 0; i < STARTS; i++) {
    const { env: e, cleanup } = await env()
    try {
      timings.push(await start(entry, e))
    } finally {
      await cleanup()
    }
  }
  const ms = (f: (t: Timing) => number) => `${Math.round(median(timings.map(f)))} ms`.padStart(8)
  console.log(
    `${label.padEnd(40)} first line ${ms((t) => t.firstLine)}   listening ${ms((t) => t.listening)}   /health ${ms((t) => t.health)}` +
      `   CPU ${ms((t) => t.cpu)} (with program processes ${ms((t) => t.cpuAll).trim()})`,
  )
}

const importTime = (specifier: string): number => {
  const samples: Array<number> = []
  for (let i = 0; i < STARTS; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t)`], { cwd: ROOT })
    samples.push(Number(out.toString().trim()))
  }
  return Math.round(median(samples))
}

if (!existsSync(join(ROOT, "dist/src/cli/main.js"))) execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "inherit" })

console.log(`codemode serve start-up, median of ${STARTS} (the machine may be loaded)`)
console.log(`import the library: sources ${importTime("./src/index.ts")} ms, compiled ${importTime("./dist/src/index.js")} ms`)

const scratch = mkdtempSync(join(tmpdir(), "codemode-startup-"))
try {
  const existing = join(scratch, "existing")
  // Create the embedded database once; the "existing" cases reopen it.
  await start("src/cli/main.ts", { DATABASE_URL: "", PGLITE_DIR: existing })
  const reuse = async () => ({ env: { DATABASE_URL: "", PGLITE_DIR: existing }, cleanup: async () => {} })
  let n = 0
  const fresh = async () => {
    const dir = join(scratch, `fresh-${n++}`)
    return { env: { DATABASE_URL: "", PGLITE_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  for (const [label, entry] of [["sources", "src/cli/main.ts"], ["compiled", "dist/src/cli/main.js"]] as const) {
    await measure(`${label}, existing embedded database`, entry, reuse)
    await measure(`${label}, new embedded database`, entry, fresh)
    if (process.env["DATABASE_URL"]) {
      const { createDatabase } = await import("../test/service/helpers.ts")
      await measure(`${label}, PostgreSQL (new database)`, entry, async () => {
        const db = await createDatabase()
        return { env: { DATABASE_URL: db.url }, cleanup: db.drop }
      })
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
