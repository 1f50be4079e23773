/**
 * The layering of the engine core: the compiler and the VM share only the bytecode format (src/bytecode), as
 * QuickJS's compiler and interpreter share its opcode table, and the host calls the compiler. Neither imports the
 * other, and the format imports neither.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SRC = fileURLToPath(new URL("../../src", import.meta.url))

/** Folders under src/ that a folder's files must not import. */
const FORBIDDEN: Record<string, ReadonlyArray<string>> = {
  vm: ["compiler"],
  compiler: ["vm"],
  bytecode: ["vm", "compiler", "host"],
}

// Static imports and re-exports (`from "..."`), side-effect imports and dynamic `import("...")`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []))

/** Every import that crosses a forbidden boundary, as "file -> target" relative to `root`. */
const violations = (root: string): string[] => {
  const found: string[] = []
  for (const [folder, banned] of Object.entries(FORBIDDEN)) {
    for (const file of filesUnder(join(root, folder))) {
      for (const [, spec] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
        if (!spec!.startsWith(".")) continue
        const target = relative(root, resolve(dirname(file), spec!)).split("\\").join("/")
        if (banned.some((b) => target === b || target.startsWith(`${b}/`))) found.push(`${relative(root, file)} -> ${target}`)
      }
    }
  }
  return found.sort()
}

describe("engine layering", () => {
  it("src/vm and src/compiler do not import each other, and src/bytecode imports neither", () => {
    expect(violations(SRC)).toEqual([])
  })

  it("reports an import across the boundary, static or dynamic", () => {
    const root = mkdtempSync(join(tmpdir(), "codemode-layering-"))
    for (const d of ["vm", "compiler", "bytecode"]) mkdirSync(join(root, d))
    writeFileSync(join(root, "vm", "a.ts"), `import { compileProgram } from "../compiler/functions.ts"\nexport { x } from "../bytecode/code.ts"\n`)
    writeFileSync(join(root, "compiler", "b.ts"), `const m = await import("../vm/index.ts")\n`)
    writeFileSync(join(root, "bytecode", "c.ts"), `import "../compiler/index.ts"\n`)
    expect(violations(root)).toEqual(["bytecode/c.ts -> compiler/index.ts", "compiler/b.ts -> vm/index.ts", "vm/a.ts -> compiler/functions.ts"])
  })
})
