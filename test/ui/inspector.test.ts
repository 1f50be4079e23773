/**
 * The run inspector (issue 19) in a real headless Chromium (Debian's `chromium`, driven by playwright-core; no
 * browser download) against a real `codemode serve` on Postgres, with real webhook receivers, and API keys of two
 * tenants entered through the page as a person would. Each test drives the pages and checks what they show; the
 * main pages are saved to docs/screenshots/ for the README.
 */
import { execFile } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { promisify } from "node:util"
import { chromium, type Browser, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, eventually, request, ROOT, spawnReplica, startReceiver, type ChildReplica } from "../service/helpers.ts"

const CHROMIUM = "/usr/bin/chromium"
const SHOTS = `${ROOT}docs/screenshots`
const exec = promisify(execFile)

let db: Awaited<ReturnType<typeof createDatabase>>
let server: ChildReplica
let browser: Browser
let acme: string
let globex: string
let receiver: Awaited<ReturnType<typeof startReceiver>>
let slow: Awaited<ReturnType<typeof startReceiver>>

const as = (key: string) => ({ authorization: `Bearer ${key}` })
const api = (key: string, method: string, path: string, body?: unknown) => request(server.url, method, path, body, as(key))

const keysCreate = async (tenant: string) =>
  (await exec(process.execPath, ["src/cli/main.ts", "keys", "create", "--tenant", tenant], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url } })).stdout.trim()

const register = async (key: string, path: string, description: string, url: string, mode = "plain", output: unknown = { type: "object" }) => {
  const tool = { description, input: { type: "object", properties: { id: { type: "string" } } }, output, url, mode }
  expect((await api(key, "PUT", `/v1/tools/${path}`, tool)).status).toBe(200)
}

/** Uncaught errors of each open page's scripts: `close` checks there were none. */
const pageErrors = new WeakMap<Page, Array<string>>()

/** A page of a fresh browser context (its own session storage) with the tenant's key entered in the key form. */
const open = async (key: string, hash = "#/runs", colorScheme: "light" | "dark" = "light"): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme })
  const page = await context.newPage()
  const errors: Array<string> = []
  pageErrors.set(page, errors)
  page.on("pageerror", (e) => errors.push(e.message))
  await page.goto(`${server.url}/ui#/runs`)
  // The server has keys: the list's first API answer is a 401, and the page asks for one.
  await page.getByRole("alert").filter({ hasText: "needs an API key" }).waitFor()
  await page.getByLabel("API key", { exact: true }).fill(key)
  await page.getByRole("button", { name: "Save", exact: true }).click()
  await page.getByRole("button", { name: "API key ✓" }).waitFor()
  if (hash !== "#/runs") await page.goto(`${server.url}/ui${hash}`)
  return page
}

const close = async (page: Page) => {
  expect(pageErrors.get(page)).toStrictEqual([])
  await page.context().close()
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })

const runRow = (page: Page, id: string) => page.locator(`tr[data-run="${id}"]`)
const sourceLine = (page: Page, line: number) => page.locator(`.lines li[data-line="${line}"]`)

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does this)`)
  }
  mkdirSync(SHOTS, { recursive: true })
  db = await createDatabase()
  acme = await keysCreate("acme")
  globex = await keysCreate("globex")
  server = await spawnReplica({ DATABASE_URL: db.url, CODEMODE_IDLE_SUSPEND_MS: "300", CODEMODE_POLL_MS: "200" })
  receiver = await startReceiver(async (c) => {
    if (c.json.type === "start") return { json: { data: { job: `job-${c.json.key}` } } }
    if (c.json.type !== "call") return { json: {} }
    return { json: { output: { id: (c.json.input as { id?: string }).id, status: "shipped" } }, delayMs: 150 }
  })
  slow = await startReceiver(() => ({ json: { output: {} }, delayMs: 30_000 }))
  await register(acme, "orders.lookup", "Looks up an order by its id", `${receiver.url}/orders`)
  await register(acme, "billing.charge", "Charges a customer's card for an order", `${receiver.url}/billing`)
  await register(acme, "mail.send", "Sends an email to a customer", `${receiver.url}/mail`)
  await register(acme, "shipping.book", "Books a courier; answers later (a durable job)", `${receiver.url}/ship`, "durable")
  await register(acme, "reports.build", "Builds a slow report", slow.url, "idempotent")
  await register(acme, "inventory.count", "Counts the stock of an item", `${receiver.url}/inventory`, "idempotent")
  expect((await api(acme, "PUT", "/v1/namespaces/orders", { description: "The shop's orders" })).status).toBe(200)
  browser = await chromium.launch({ executablePath: CHROMIUM })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await receiver?.close()
  await slow?.close()
  await db?.drop()
})

describe("the run inspector", () => {
  it("serves its files with a strict content security policy, and nothing outside them", async () => {
    const index = await fetch(`${server.url}/ui`)
    expect(index.status).toBe(200)
    expect(index.headers.get("content-type")).toContain("text/html")
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'")
    expect((await fetch(`${server.url}/ui/vendor/hooks.mjs`).then((r) => r.text())).includes('from"./preact.mjs"')).toBe(true)
    for (const path of ["/ui/..%2Fserver%2Fui.ts", "/ui/package.json", "/ui/vendor/..%2F..%2Fpackage.json"]) {
      expect((await fetch(server.url + path)).status).toBe(404)
    }
  })

  it("lists a run that calls a webhook tool as it appears, and its timeline shows the call's input and output", async () => {
    const page = await open(acme)
    await page.getByRole("heading", { name: "Runs" }).waitFor()
    const code = `const order = await tools.orders.lookup({ id: "order_42" })\nconsole.log("status", order.status)\nreturn order.status`
    const run = await api(acme, "POST", "/v1/runs", { code, id: "order-42-check" })
    expect(run.body.status).toBe("succeeded")
    // The list was open before the run existed: it appears by itself.
    await runRow(page, "order-42-check").getByText("succeeded").waitFor()
    await expect(runRow(page, "order-42-check").textContent()).resolves.toContain("tools.orders.lookup")

    await page.getByRole("link", { name: "order-42-check" }).click()
    const call = page.locator(".row-call").filter({ hasText: "orders.lookup" })
    await call.waitFor()
    const input = JSON.parse(await call.locator("pre.json").nth(0).innerText())
    const output = JSON.parse(await call.locator("pre.json").nth(1).innerText())
    expect(input).toStrictEqual({ id: "order_42" })
    expect(output).toStrictEqual({ id: "order_42", status: "shipped" })
    await expect(sourceLine(page, 1).getAttribute("class")).resolves.toBe("mark-call")
    await expect(page.locator("pre.logs").innerText()).resolves.toBe("status shipped")
    await shot(page, "run")
    await close(page)
  })

  it("highlights the line a failed run failed on", async () => {
    const code = `const order = await tools.orders.lookup({ id: "order_7" })\nconst missing = null\nreturn missing.total + order.status`
    const run = await api(acme, "POST", "/v1/runs", { code })
    expect(run.body.status).toBe("failed")
    const page = await open(acme, `#/runs/${run.body.id}`, "dark")
    await sourceLine(page, 3).and(page.locator(".mark-error")).waitFor()
    await expect(sourceLine(page, 3).innerText()).resolves.toContain("TypeError")
    expect(await page.locator(".mark-error").count()).toBe(1)
    await expect(page.getByRole("alert").first().innerText()).resolves.toContain("line 3")
    await shot(page, "failed-run-dark")
    await close(page)
  })

  it("shows the line a durable run is suspended on, and follows it live to its end", async () => {
    // The comment names the call too: the line marked is where the service says the call was made.
    const code = `// look the order up, then book(one) courier\nconst order = await tools.orders.lookup({ id: "order_9" })\nconst booking = await tools.shipping.book({ id: order.id })\nreturn booking.courier`
    const run = await api(acme, "POST", "/v1/runs", { code, wait: false })
    const id = run.body.id
    const page = await open(acme, `#/runs/${id}`)
    await page.locator("h1 .status-suspended").waitFor()
    await sourceLine(page, 3).and(page.locator(".mark-suspended")).waitFor()
    expect(await page.locator(".mark-suspended").count()).toBe(1)
    await expect(sourceLine(page, 3).innerText()).resolves.toContain("suspended here, waiting for shipping.book")
    await expect(page.locator(".row-call").filter({ hasText: "shipping.book" }).locator(".where").innerText()).resolves.toBe("line 3")
    await page.locator(".row-suspension").first().waitFor()
    await shot(page, "suspended-run")

    const suspended = await api(acme, "GET", `/v1/runs/${id}`)
    const key = suspended.body.pendingCalls[0].key
    expect((await api(acme, "POST", `/v1/calls/${encodeURIComponent(key)}/complete`, { ok: true, output: { courier: "DHL" } })).status).toBe(200)
    await page.locator("h1 .status-succeeded").waitFor()
    expect(await page.locator(".mark-suspended").count()).toBe(0)
    const call = page.locator(".row-call").filter({ hasText: "shipping.book" })
    await expect(call.locator("pre.json").nth(1).innerText()).resolves.toContain("DHL")
    await close(page)
  })

  it("suspends, resumes and cancels a run with its buttons", async () => {
    const run = await api(acme, "POST", "/v1/runs", { code: `return await tools.reports.build({ id: "q4" })`, wait: false })
    const page = await open(acme, `#/runs/${run.body.id}`)
    await page.locator(".row-call").filter({ hasText: "reports.build" }).waitFor()
    await page.getByRole("button", { name: "Suspend" }).click()
    await page.locator("h1 .status-suspended").waitFor()
    expect((await api(acme, "GET", `/v1/runs/${run.body.id}`)).body.status).toBe("suspended")

    await page.getByRole("button", { name: "Resume" }).click()
    await page.locator("h1 .status-running").waitFor()
    await page.locator(".row-suspension").first().waitFor()

    await page.getByRole("button", { name: "Cancel" }).click()
    await page.locator("h1 .status-cancelled").waitFor()
    expect((await api(acme, "GET", `/v1/runs/${run.body.id}`)).body.status).toBe("cancelled")
    await expect(page.getByRole("button", { name: "Cancel" }).isDisabled()).resolves.toBe(true)
    await close(page)
  })

  it("forks a run from a call with an edited outcome, and opens the new run", async () => {
    const code = `const stock = await tools.inventory.count({ id: "sku-1" })\nreturn stock.status`
    const run = await api(acme, "POST", "/v1/runs", { code, id: "stock-check" })
    expect(run.body.result.value).toBe("shipped")
    const page = await open(acme, "#/runs/stock-check")
    const call = page.locator(".row-call").filter({ hasText: "inventory.count" })
    await call.getByRole("button", { name: "Fork from this call…" }).click()
    const outcome = call.getByLabel(/Outcome of inventory.count/)
    expect(JSON.parse(await outcome.inputValue())).toStrictEqual({ ok: true, value: { id: "sku-1", status: "shipped" } })
    await outcome.fill(JSON.stringify({ ok: true, value: { id: "sku-1", status: "lost" } }, null, 2))
    await shot(page, "fork")
    await call.getByRole("button", { name: "Fork the run" }).click()
    await page.getByRole("link", { name: "stock-check" }).waitFor()
    await page.locator("h1 .status-succeeded").waitFor()
    expect(JSON.parse(await page.locator('section[aria-labelledby="result-title"] pre.json').innerText())).toBe("lost")
    const forked = decodeURIComponent(new URL(page.url()).hash.slice("#/runs/".length))
    expect(forked).not.toBe("stock-check")
    expect((await api(acme, "GET", `/v1/runs/${forked}`)).body).toMatchObject({ forkedFrom: { run: "stock-check" }, result: { ok: true, value: "lost" } })
    // The edited outcome answered the call: the fork sent nothing to the tool, and the source run is unchanged.
    expect(receiver.calls.filter((c) => c.json.runId === forked)).toStrictEqual([])
    expect((await api(acme, "GET", "/v1/runs/stock-check")).body.result.value).toBe("shipped")
    await close(page)
  })

  it("finds a tool by search on the tools page, with its signature and registration, never its secret", async () => {
    const page = await open(acme, "#/tools")
    await page.locator('[data-tool="orders.lookup"]').waitFor()
    expect(await page.locator(".tool").count()).toBe(6)
    await shot(page, "tools")
    await page.getByLabel("Search", { exact: true }).fill("card")
    await page.getByRole("button", { name: "Search", exact: true }).click()
    await page.getByText(/found for/).waitFor()
    // The service ranks by relevance: the tool whose description says "card" comes first, the mail tool not at all.
    await expect(page.locator(".tool").first().getAttribute("data-tool")).resolves.toBe("billing.charge")
    expect(await page.locator('[data-tool="mail.send"]').count()).toBe(0)
    const charge = page.locator('[data-tool="billing.charge"]')
    await expect(charge.innerText()).resolves.toContain("tools.billing.charge(")
    await expect(charge.innerText()).resolves.toContain(new URL(receiver.url).host)
    await expect(page.content()).resolves.not.toContain("whsec_")
    await close(page)
  })

  it("runs a program from the editor and shows it running to its end; the list filters runs", async () => {
    const page = await open(acme, "#/try")
    await page.getByLabel(/Program/).fill(`const o = await tools.orders.lookup({ id: "order_1" })\nconsole.log("looked up", o.id)\nreturn o`)
    await page.getByRole("button", { name: "Run", exact: true }).click()
    await page.locator(".watch h1 .status-succeeded").waitFor()
    await expect(page.locator(".watch pre.logs").innerText()).resolves.toBe("looked up order_1")
    await shot(page, "try")
    // By now the runs of the tests above are in the list, one of each status.
    await page.goto(`${server.url}/ui#/runs`)
    await runRow(page, "order-42-check").waitFor()
    await shot(page, "runs")
    // The filters are the service's: by the tool a run called, then by status too.
    const rows = page.locator("tr[data-run]")
    await page.locator("#filter-tool").fill("shipping.book")
    await page.locator("#filter-tool").press("Enter")
    const only = (text: string) => eventually(async () => ((await rows.count()) === 1 && (await rows.first().textContent())?.includes(text) ? true : undefined))
    await only("tools.shipping.book")
    await page.locator("#filter-tool").fill("orders.lookup")
    await page.locator("#filter-tool").press("Enter")
    await page.getByLabel("Status", { exact: true }).selectOption("failed")
    await only("failed")
    await expect(rows.first().textContent()).resolves.toContain("tools.orders.lookup")
    await close(page)
  })
})

describe("the inspector's pages", () => {
  it("label every control, and can be used from the keyboard alone", async () => {
    const page = await open(acme)
    // Run in the page (a string: these tests are typed without the DOM's types).
    const unlabelled = () =>
      page.evaluate<Array<string>>(
        `[...document.querySelectorAll("input, select, textarea, button")]
          .filter((c) => !(c.labels?.length || c.getAttribute("aria-label") || (c.tagName === "BUTTON" && c.textContent.trim())))
          .map((c) => c.outerHTML)`,
      )
    for (const hash of ["#/runs", "#/runs/order-42-check", "#/tools", "#/try"]) {
      await page.goto(`${server.url}/ui${hash}`)
      await page.locator("main h1").waitFor()
      expect(await unlabelled(), hash).toStrictEqual([])
    }
    // From the first link of the page: Tab moves along the navigation, Enter follows it.
    await page.goto(`${server.url}/ui#/runs`)
    await page.locator("main h1").waitFor()
    await page.locator(".brand").focus()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    await expect(page.evaluate("document.activeElement?.textContent")).resolves.toBe("Tools")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Tools", exact: true }).waitFor()
    await close(page)
  })

  it("keep text at WCAG AA contrast (4.5:1) in the light and the dark scheme", async () => {
    const failed = (await api(acme, "GET", "/v1/runs?status=failed&limit=1")).body.runs[0].id
    // Each text element's colour against the first opaque background behind it; the worst ones are answered.
    const worst = `(() => {
      const rgb = (c) => c.match(/[\\d.]+/g).map(Number)
      const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
      }
      const background = (el) => {
        for (; el; el = el.parentElement) {
          const c = rgb(getComputedStyle(el).backgroundColor)
          if (c.length < 4 || c[3] > 0.9) return c
        }
        return [255, 255, 255]
      }
      const out = []
      for (const el of document.querySelectorAll("main *, header *")) {
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "")
        if (!own || el.closest("button:disabled")) continue
        const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(background(el))]
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
        if (ratio < 4.5) out.push(el.tagName + "." + el.className + " " + ratio.toFixed(2) + " " + el.textContent.slice(0, 30))
      }
      return out
    })()`
    for (const scheme of ["light", "dark"] as const) {
      const page = await open(acme, "#/runs", scheme)
      await page.locator("tr[data-run]").first().waitFor()
      expect(await page.evaluate<Array<string>>(worst), `runs, ${scheme}`).toStrictEqual([])
      await page.goto(`${server.url}/ui#/runs/${failed}`)
      await page.locator(".mark-error").waitFor()
      await page.locator(".row-call").first().waitFor()
      expect(await page.evaluate<Array<string>>(worst), `a failed run, ${scheme}`).toStrictEqual([])
      await close(page)
    }
  })

  it("highlight a program without losing or reordering a character", async () => {
    const page = await open(acme)
    const source = `// a comment\nconst s = "a \\"quoted\\" string", t = \`line\n\${s}\`\n/* block\n comment */ let n = 0x1F + 1.5e3 + 7n\nif (n !== null) return await tools.x.y({ ok: true })`
    const lines = await page.evaluate<Array<Array<{ kind: string; text: string }>>>(
      `import(location.origin + "/ui/highlight.js").then((m) => m.highlight(${JSON.stringify(source)}))`,
    )
    expect(lines.map((l) => l.map((t) => t.text).join("")).join("\n")).toBe(source)
    const kinds = (kind: string) => lines.flat().filter((t) => t.kind === kind).map((t) => t.text)
    expect(kinds("comment")).toStrictEqual(["// a comment", "/* block", " comment */"])
    expect(kinds("keyword")).toStrictEqual(["const", "let", "if", "return", "await"])
    expect(kinds("number")).toStrictEqual(["0x1F", "1.5e3", "7n"])
    expect(kinds("literal")).toStrictEqual(["null", "true"])
    expect(kinds("string")).toStrictEqual(['"a \\"quoted\\" string"', "`line", "${s}`"])
    await close(page)
  })
})

describe("tenancy in the inspector", () => {
  it("shows another tenant nothing: no run, no program, no event, no tool, in any page or API answer", async () => {
    const code = `const secret = "acme-only-marker"\nreturn await tools.orders.lookup({ id: secret })`
    const mine = await api(acme, "POST", "/v1/runs", { code, id: "acme-private-run" })
    expect(mine.body.status).toBe("succeeded")

    const page = await open(globex)
    const answers: Array<string> = []
    page.on("response", (r) => void r.text().then((t) => answers.push(`${r.url()} ${r.status()} ${t}`), () => {}))
    await page.getByText("No runs yet.").waitFor()
    await page.goto(`${server.url}/ui#/runs/acme-private-run`)
    await page.getByRole("alert").filter({ hasText: "RunNotFound" }).waitFor()
    // The page asks for the run and its events at once; leaving it before the events answer would abort that request.
    await eventually(async () => (answers.some((a) => a.includes("/v1/runs/acme-private-run/events")) ? true : undefined))
    await page.goto(`${server.url}/ui#/tools`)
    await page.getByText("0 tools").waitFor()
    await page.getByLabel("Search", { exact: true }).fill("order")
    await page.getByRole("button", { name: "Search", exact: true }).click()
    await page.getByText(/0 found for/).waitFor()
    await page.goto(`${server.url}/ui#/runs`)
    await page.getByLabel("Status", { exact: true }).selectOption("succeeded")
    await page.getByText("No runs match these filters.").waitFor()

    // A response's text is pushed once read: the last ones may still be on their way.
    await eventually(async () => (answers.filter((a) => a.includes("/v1/")).length > 4 ? true : undefined))
    const seen = answers.join("\n")
    expect(answers.filter((a) => a.includes("/v1/")).length).toBeGreaterThan(4)
    for (const secret of ["acme-only-marker", '"id":"acme-private-run"', "orders.lookup", "billing.charge", "The shop's orders", receiver.url]) {
      expect(seen).not.toContain(secret)
    }
    await close(page)
  })
})
