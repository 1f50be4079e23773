/**
 * Spec "Extension.make": "Programs load globals the way Node code loads modules. `import` and `require` take a
 * global by its Node module name, with or without `node:`; `fs/promises`, `url`, `util`, and `buffer` resolve to the
 * globals that provide them. There are no packages, so anything else throws." Every form, on both engines: import
 * declarations (default, named, namespace, side effect), `require`, `import()`, and what fails.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { CodeMode, Extension } from "../../src/index.ts"
import { ENGINES, makeFor } from "./engines.ts"

const value = (r: CodeMode.Result): unknown => {
  if (!r.ok) throw new Error(`expected a successful run, got ${JSON.stringify(r.error)}`)
  return r.value
}
const error = (r: CodeMode.Result): CodeMode.Diagnostic => {
  if (r.ok) throw new Error(`expected a failed run, got ${JSON.stringify(r.value)}`)
  return r.error
}

const node = Extension.make({
  name: "node",
  globals: {
    fs: {
      readFileSync: (p: string) => `sync ${p}`,
      promises: { readFile: async (p: string) => `async ${p}` },
    },
    crypto: { randomUUID: () => "00000000-0000-4000-8000-000000000000" },
    Buffer: { from: (s: string) => new TextEncoder().encode(s) },
  },
})

describe.each(ENGINES)("%s engine", (engine) => {
  const make = makeFor(engine)
  const run = (code: string) => make({ extensions: [node] }).execute(code)

  describe("import declarations", () => {
    it.effect("take a global by its module name, with or without node: — the default import is the global, named imports its properties", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          import fs, { readFileSync } from "node:fs"
          import { readFileSync as read2, promises } from "fs"
          return [fs === globalThis.fs, readFileSync("a"), read2("b"), await promises.readFile("c")]
        `)
        assert.deepStrictEqual(value(r), [true, "sync a", "sync b", "async c"])
      }))

    it.effect("a namespace import is a frozen Module object with the global as default and its properties", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          import * as ns from "node:fs"
          return [Object.keys(ns), ns.default === fs, Object.prototype.toString.call(ns), Object.isFrozen(ns), Object.getPrototypeOf(ns)]
        `)
        assert.deepStrictEqual(value(r), [["default", "promises", "readFileSync"], true, "[object Module]", true, null])
      }))

    it.effect("imports are hoisted, immutable, and make the program strict module code", () =>
      Effect.gen(function* () {
        const hoisted = yield* run(`const before = readFileSync("x")\nimport { readFileSync } from "fs"\nreturn before`)
        assert.strictEqual(value(hoisted), "sync x")
        const constant = yield* run(`import fs from "fs"\nfs = 1`)
        assert.deepStrictEqual(error(constant), { kind: "ExecutionFailure", message: "TypeError: Assignment to constant variable.", location: { line: 2, column: 6 } })
        const strict = yield* run(`import "fs"\nundeclared = 1`)
        assert.deepStrictEqual(error(strict), { kind: "ExecutionFailure", message: "ReferenceError: undeclared is not defined", location: { line: 2, column: 14 } })
        const onlyImports = yield* run(`import "node:fs"`)
        assert.strictEqual(value(onlyImports), null)
      }))

    it.effect("fs/promises, url, util and buffer resolve to the globals that provide them", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          import { readFile } from "node:fs/promises"
          import { URL, URLSearchParams } from "url"
          import { TextEncoder, TextDecoder } from "node:util"
          import { Buffer, atob, btoa } from "buffer"
          return [await readFile("p"), new URL("https://x.test/a?b=1").pathname, new URLSearchParams("a=2").get("a"),
            new TextDecoder().decode(new TextEncoder().encode("é")), atob(btoa("hi")), Array.from(Buffer.from("ab")),
            URL === globalThis.URL, TextEncoder === globalThis.TextEncoder]
        `)
        assert.deepStrictEqual(value(r), ["async p", "/a", "2", "é", "hi", [97, 98], true, true])
      }))

    it.effect("an unknown module fails the run at its import, before the program's code runs", () =>
      Effect.gen(function* () {
        const r = yield* run(`console.log("never")\nimport _ from "lodash"`)
        assert.deepStrictEqual(error(r), { kind: "ExecutionFailure", message: "Error: Cannot find module 'lodash'", location: { line: 2, column: 1 } })
        assert.deepStrictEqual(r.logs ?? [], [])
        const builtin = yield* run(`import { spawn } from "node:child_process"`)
        assert.strictEqual(error(builtin).message, "Error: Cannot find module 'node:child_process'")
        const missing = yield* run(`import { writeFileSync } from "fs"`)
        assert.deepStrictEqual(error(missing), {
          kind: "ExecutionFailure",
          message: "SyntaxError: The requested module 'fs' does not provide an export named 'writeFileSync'",
          location: { line: 1, column: 1 },
        })
      }))
  })

  describe("require and import()", () => {
    it.effect("require(name) returns the global itself, with or without node:", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          const crypto = require("crypto")
          return [crypto === require("node:crypto"), crypto === globalThis.crypto, crypto.randomUUID(), require("fs/promises") === fs.promises, typeof require("url").URL]
        `)
        assert.deepStrictEqual(value(r), [true, true, "00000000-0000-4000-8000-000000000000", true, "function"])
      }))

    it.effect("modules are fixed when the run starts: reassigning a global does not change what require returns", () =>
      Effect.gen(function* () {
        const r = yield* run(`const original = fs; globalThis.fs = { fake: true }; fs.promises = null; return [require("fs") === original, require("fs/promises") !== null]`)
        assert.deepStrictEqual(value(r), [true, true])
      }))

    it.effect("anything else throws Node's errors: MODULE_NOT_FOUND for require, ERR_MODULE_NOT_FOUND for import()", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          const out = []
          try { require("left-pad") } catch (e) { out.push([e instanceof Error, e.message, e.code]) }
          try { require(42) } catch (e) { out.push([e instanceof TypeError]) }
          out.push(await import("node:left-pad").then(() => "loaded", (e) => [e.message, e.code]))
          return out
        `)
        assert.deepStrictEqual(value(r), [
          [true, "Cannot find module 'left-pad'", "MODULE_NOT_FOUND"],
          [true],
          ["Cannot find module 'node:left-pad'", "ERR_MODULE_NOT_FOUND"],
        ])
      }))

    it.effect("await import(name) gives the module's namespace, default included", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          const { default: same, readFileSync } = await import("fs")
          const name = "node:" + "crypto"
          const p = import(name)
          return [same === fs, readFileSync("z"), p instanceof Promise, (await p).default === crypto]
        `)
        assert.deepStrictEqual(value(r), [true, "sync z", true, true])
      }))

    it.effect("without extensions, only the modules made of built-in globals exist", () =>
      Effect.gen(function* () {
        const r = yield* make().execute(`
          const { URL } = require("url")
          let fsError
          try { require("fs") } catch (e) { fsError = e.message }
          return [typeof URL, fsError, Object.keys(require("buffer"))]
        `)
        assert.deepStrictEqual(value(r), ["function", "Cannot find module 'fs'", ["atob", "btoa"]])
      }))
  })
})
