/**
 * docs/guide.md's examples, each `ts` block run as its own module on the project's Node, with `codemode` and
 * `codemode/client` pointing at this checkout's sources: the guide cannot drift from the library.
 */
import { execFile } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { ROOT } from "../service/helpers.ts"

const exec = promisify(execFile)
const guide = readFileSync(join(ROOT, "docs/guide.md"), "utf8")
const blocks = [...guide.matchAll(/^## (.+)$|^```ts\n([\s\S]*?)^```$/gm)].reduce<Array<{ section: string; code: string }>>(
  (acc, m) => {
    if (m[1] !== undefined) acc.push({ section: m[1], code: "" })
    else if (acc.length > 0) acc[acc.length - 1] = { ...acc.at(-1)!, code: acc.at(-1)!.code + m[2] }
    return acc
  },
  [],
).filter((b) => b.code !== "")

// Inside the checkout, so that `effect` resolves from its node_modules.
const dir = join(ROOT, ".tmp", `guide-${process.pid}`)
mkdirSync(dir, { recursive: true })
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("docs/guide.md", () => {
  it("has an example in every section", () => {
    expect(blocks.map((b) => b.section)).toStrictEqual(["Tools, results and limits", "The VM: suspend, save, resume", "Durable tools", "Extensions", "OpenAPI tools"])
  })

  it.each(blocks)("$section: the example runs and its assertions hold", async ({ section, code }) => {
    const file = join(dir, `${section.replace(/\W+/g, "-")}.ts`)
    const source = code
      .replace(/from "codemode\/client"/g, `from ${JSON.stringify(join(ROOT, "src/client/index.ts"))}`)
      .replace(/from "codemode"/g, `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`)
    writeFileSync(file, source)
    await exec(process.execPath, [file], { cwd: ROOT, timeout: 60_000 })
  })
})
