/**
 * The build id changes exactly when a saved state might no longer be read: a change to the engine core or to the
 * host's part of a saved state, not a change to the service, the CLI or the run loop. Computed over a temporary
 * copy of src/ that each case edits and restores.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildId, computeBuildId } from "../../src/snapshot/build-id.ts"

const SRC = fileURLToPath(new URL("../../src", import.meta.url))
let root = ""

beforeAll(() => {
  root = join(mkdtempSync(join(tmpdir(), "codemode-build-id-")), "src")
  cpSync(SRC, root, { recursive: true })
})
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }))

/** The build id of the copy before and after `edits` (file → text appended, or created), which are then undone. */
const idsAround = (edits: Record<string, string>): { before: string; after: string } => {
  const before = computeBuildId(root)
  const originals = Object.keys(edits).map((f) => [f, existsSync(join(root, f)) ? readFileSync(join(root, f)) : undefined] as const)
  try {
    for (const [f, text] of Object.entries(edits)) appendFileSync(join(root, f), text)
    return { before, after: computeBuildId(root) }
  } finally {
    for (const [f, original] of originals) {
      if (original === undefined) rmSync(join(root, f))
      else writeFileSync(join(root, f), original)
    }
  }
}

const touch = (file: string) => ({ [file]: "\n// an edit\n" })

describe("build id", () => {
  it("is the id of this checkout's sources", () => {
    expect(buildId()).toBe(computeBuildId(SRC))
    expect(buildId()).toMatch(/^[0-9a-f]{32}$/)
  })

  it.each(["server/runs.ts", "server/http.ts", "cli/main.ts", "host/run.ts", "host/codemode.ts", "openapi/from-spec.ts"])(
    "does not change when %s changes",
    (file) => {
      const { before, after } = idsAround(touch(file))
      expect(after).toBe(before)
    },
  )

  it("does not change when a file is added under src/server", () => {
    const { before, after } = idsAround({ "server/new-module.ts": "export const x = 1\n" })
    expect(after).toBe(before)
  })

  it.each(["vm/machine.ts", "bytecode/opcodes.ts", "compiler/expressions.ts", "runtime/object.ts", "intrinsics/array.ts", "snapshot/heap-codec.ts", "language/scope.ts", "host/snapshot-classes.ts", "host/vm-session.ts", "host/sandbox-tools.ts"])(
    "changes when %s changes",
    (file) => {
      const { before, after } = idsAround(touch(file))
      expect(after).not.toBe(before)
    },
  )

  it("follows a new file the session comes to import", () => {
    const link = '\nexport { shape } from "./new-shape.ts"\n'
    const one = idsAround({ "host/new-shape.ts": "export const shape = 1\n", "host/saved-run.ts": link })
    const two = idsAround({ "host/new-shape.ts": "export const shape = 2\n", "host/saved-run.ts": link })
    expect(one.after).not.toBe(one.before)
    expect(two.after).not.toBe(one.after)
  })
})
