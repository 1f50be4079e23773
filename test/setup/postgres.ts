/**
 * vitest globalSetup: the PostgreSQL server the service tests use. `DATABASE_URL` set means that server, exactly
 * as given. Unset, a private server is started for this run (`embedded-postgres.ts`, in a child process, on a free
 * port, with its data in a temporary folder) and stopped at the end, so the suite passes on a machine with no
 * PostgreSQL and never touches one it did not start. Test files each create their own uniquely named database
 * on it and drop it themselves (test/service/helpers.ts).
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const START_TIMEOUT_MS = 120_000

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env["DATABASE_URL"]) return undefined
  const child = spawn(process.execPath, [fileURLToPath(new URL("./embedded-postgres.ts", import.meta.url))], {
    stdio: ["pipe", "pipe", "pipe"],
  })
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`embedded PostgreSQL did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer)
      resolve((JSON.parse(line) as { url: string }).url)
    })
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(stderr.trim() || "embedded PostgreSQL exited while starting"))
    })
  }).catch(async (error: unknown) => {
    child.kill("SIGTERM")
    await exited
    throw error
  })
  // Workers and the processes tests spawn inherit the environment.
  process.env["DATABASE_URL"] = url
  return async () => {
    child.stdin.end()
    await exited
    delete process.env["DATABASE_URL"]
  }
}
