/**
 * Table-walking tests of the snapshot registry (STYLE "Tests"): a new heap kind, closure kind or unnamed
 * built-in object must not silently break snapshots.
 *
 * - Every class exported from src/runtime, src/intrinsics, src/vm and src/host that extends JSObject is registered
 *   with the codec (and so has its fields listed and checked).
 * - Every built-in closure kind (`defineNativeClosure`) has its slots' shape.
 * - Every object a fresh realm holds, as a VM run prepares it, has a name (built-ins are saved by name), and two
 *   realms prepared alike give the same names to objects of the same class.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { CodeMode, Extension, Tool } from "../../src/index.ts"
import { hostClasses } from "../../src/host/snapshot-classes.ts"
import { CallLedger } from "../../src/host/ledger.ts"
import { buildIndex } from "../../src/host/tree.ts"
import { prepareVmRealm, type VmContext } from "../../src/host/vm-session.ts"
import { NativeClosures } from "../../src/runtime/builtin.ts"
import { ForkedProperties } from "../../src/runtime/realm-fork.ts"
import { JSObject } from "../../src/runtime/object.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { closureSlots } from "../../src/snapshot/closure-slots.ts"
import { makeRegistry } from "../../src/snapshot/registry.ts"

const registry = makeRegistry(hostClasses)
const SRC = join(import.meta.dirname, "..", "..", "src")

const modulesOf = (folder: string): string[] =>
  readdirSync(join(SRC, folder))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(SRC, folder, f))

describe("the heap registry", () => {
  it("registers every class exported from runtime, intrinsics, vm and host that extends JSObject", async () => {
    const missing: string[] = []
    let seen = 0
    for (const folder of ["runtime", "intrinsics", "vm", "host"]) {
      for (const file of modulesOf(folder)) {
        const module = (await import(file)) as Record<string, unknown>
        for (const [name, exported] of Object.entries(module)) {
          if (typeof exported !== "function" || exported.prototype === undefined) continue
          const proto = exported.prototype as object
          if (proto !== JSObject.prototype && !(proto instanceof JSObject)) continue
          seen++
          if (!registry.byPrototype.has(proto)) missing.push(`${folder}/${file.split("/").at(-1)}: ${name}`)
        }
      }
    }
    expect(missing).toEqual([])
    expect(seen).toBeGreaterThan(30)
  })

  it("knows the slots of every built-in closure kind", () => {
    expect([...NativeClosures.keys()].filter((id) => !closureSlots.has(id))).toEqual([])
    expect([...closureSlots.keys()].filter((id) => !NativeClosures.has(id))).toEqual([])
  })
})

describe("names of built-ins", () => {
  const lookup = Tool.make({ description: "Look up", input: {}, execute: () => Effect.void })
  const index = buildIndex({ orders: { lookup }, "odd-name": { "x.y": lookup } })
  const node = Extension.make({ name: "node", globals: { fs: { readFile: async () => "", promises: { stat: async () => ({}) }, when: new Date(0) }, fetch: async () => "" } })
  const ctx = { index, extensions: [node] } as unknown as VmContext
  const prepare = (): Realm => prepareVmRealm(ctx, new CallLedger("r", undefined), undefined).realm

  it("every object a fresh realm holds has a name", () => {
    const realm = prepare()
    const unnamed: string[] = []
    const seen = new Set<object>()
    const names = [...realm.ownIntrinsics.keys(), ...(realm.fork?.template.realm.ownIntrinsics.keys() ?? [])]
    const stack: Array<[unknown, string]> = names.map((n) => [realm.intrinsic(n), n])
    while (stack.length > 0) {
      const [top, path] = stack.pop()!
      // A twin's properties not yet copied from the template are copied now, as any use would.
      const v = top instanceof ForkedProperties ? top.materialize() : top
      if (typeof v !== "object" || v === null || seen.has(v)) continue
      seen.add(v)
      if (v instanceof JSObject && !realm.intrinsicNames.has(v)) unnamed.push(path)
      if (v instanceof Map) for (const [k, x] of v) stack.push([k, path], [x, `${path}.${String(k)}`])
      else if (v instanceof Set) for (const x of v) stack.push([x, path])
      else if (!ArrayBuffer.isView(v)) {
        const cls = registry.classOf(v)
        for (const k of Object.keys(v)) if (!cls?.transient?.includes(k)) stack.push([(v as Record<string, unknown>)[k], `${path}#${k}`])
      }
    }
    expect(unnamed).toEqual([])
  })

  it("two realms prepared alike name the same objects the same way", () => {
    const a = prepare()
    const b = prepare()
    expect([...a.ownIntrinsics.keys()]).toEqual([...b.ownIntrinsics.keys()])
    for (const [name, o] of a.ownIntrinsics) expect(Object.getPrototypeOf(b.intrinsic(name)), name).toBe(Object.getPrototypeOf(o))
    expect(a.ownIntrinsics.has('%codemode.tools["odd-name","x","y"]%')).toBe(true)
    expect(a.ownIntrinsics.has('%codemode.module["fs/promises"]%')).toBe(true)
  })

  it("a program can keep any built-in in a variable across a suspend", async () => {
    let open = false
    const wait = Tool.make({ description: "wait", input: {}, execute: Tool.idempotent(() => (open ? Effect.void : Effect.never)) })
    const runtime = CodeMode.make({ tools: { wait }, engine: "vm" })
    const program = runtime.program(`
      const unscopables = Array.prototype[Symbol.unscopables]
      const proto = Object.getPrototypeOf(function* () {}).prototype
      await tools.wait()
      return [unscopables === Array.prototype[Symbol.unscopables], proto === Object.getPrototypeOf(function* () {}).prototype]`)
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(program.run())
        for (let i = 0; i < 20; i++) yield* Effect.yieldNow
        yield* program.suspend()
        return yield* Fiber.join(fiber)
      }),
    )
    expect(outcome.ok).toBe("suspended")
    if (outcome.ok !== "suspended") return
    open = true
    expect(await Effect.runPromise(runtime.resume(CodeMode.toBytes(outcome.state)).run())).toMatchObject({ ok: true, value: [true, true] })
  })
})
