/**
 * No function literal is assigned straight to a property anywhere in src (docs/internals.md, "A run's garbage dies
 * young", (4)): V8's parser has such a closure made in old space, and a per-run one (or one per program) then holds
 * its run through every scavenge until a full GC. The run loop's `this.now = () => clock...` did: it more than doubled
 * the CPU of a `1 + 1` run until TurboFan optimized `main`. Naming the closure first (`const f = ...; o.f = f`), a
 * method or a class field keeps it young.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SRC = fileURLToPath(new URL("../../src", import.meta.url))

// `a.b = (x) => ...`, `a[k] = async () => ...`, `a.b = x => ...`, `a.b = function ...` (not `==`, `=>`, `<=`).
const ASSIGNED_LITERAL = /(?:[\w$)\]]\.[\w$]+|\])\s*=(?![=>])\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*(?::[^=]*)?=>|[\w$]+\s*=>)/

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []))

/** Every line that assigns a function literal to a property, as "file:line". */
const assignments = (root: string): string[] =>
  filesUnder(root)
    .flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (ASSIGNED_LITERAL.test(line) && !line.trimStart().startsWith("*") && !line.trimStart().startsWith("//") ? [`${relative(root, file)}:${i + 1}`] : [])),
    )
    .sort()

describe("per-run closures", () => {
  it("src assigns no function literal straight to a property", () => {
    expect(assignments(SRC)).toEqual([])
  })

  it("finds each form of the assignment, and not a named closure, a comparison or an object literal", () => {
    const root = mkdtempSync(join(tmpdir(), "codemode-closures-"))
    for (const d of ["host", "server"]) mkdirSync(join(root, d))
    writeFileSync(
      join(root, "host", "a.ts"),
      [
        "this.now = () => clock.currentTimeMillisUnsafe()",
        "realm.host.interrupt = async (x: number): Promise<void> => {",
        "table[key] = x => x + 1",
        "o.f = function () {}",
        "const now = () => 1",
        "this.now = now",
        "if (o.f === (() => 1)) {}",
        "o.g = { f: () => 1 }",
        "o.h = p >= q",
      ].join("\n"),
    )
    writeFileSync(join(root, "server", "b.ts"), "  hosted.fiber = (program) => program\n")
    expect(assignments(root)).toEqual(["host/a.ts:1", "host/a.ts:2", "host/a.ts:3", "host/a.ts:4", "server/b.ts:1"])
  })
})
