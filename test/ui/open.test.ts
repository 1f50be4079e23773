/**
 * The run inspector on a local service with no API key configured (issue 19): it asks for none and just works.
 * In Debian's headless chromium, against a whole server built in this process on Postgres.
 */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, startReplica, type Replica } from "../service/helpers.ts"

const CHROMIUM = "/usr/bin/chromium"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let browser: Browser

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does this)`)
  }
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
  browser = await chromium.launch({ executablePath: CHROMIUM })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await db?.drop()
})

describe("the run inspector without API keys", () => {
  it("asks for no key: a program runs from the editor and shows in the list", async () => {
    const page = await browser.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (e) => errors.push(e.message))
    await page.goto(`${server.url}/ui#/runs`)
    await page.getByText("No runs yet.").waitFor()
    await page.getByRole("link", { name: "Try a program" }).click()
    await page.getByRole("button", { name: "Run", exact: true }).click()
    await page.locator(".watch h1 .status-succeeded").waitFor()
    await page.getByRole("link", { name: "Runs", exact: true }).click()
    await page.locator("tr[data-run]").first().getByText("succeeded").waitFor()
    expect(await page.getByRole("alert").count()).toBe(0)
    await expect(page.getByRole("button", { name: "Set API key" }).isVisible()).resolves.toBe(true)
    expect(errors).toStrictEqual([])
    await page.close()
  })
})
