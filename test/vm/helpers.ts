/**
 * Test helpers for the VM: compile and run a program in a fresh realm until it settles, read results back as host
 * data, and compare a program's outcome with V8's (node:vm), error names and messages included.
 */
import * as nodeVm from "node:vm"
import { expect } from "vitest"
import { compileForVm } from "../../src/host/vm-compile.ts"
import { createRealm } from "../../src/intrinsics/index.ts"
import { checkProgram } from "../../src/language/index.ts"
import { ArrayObject } from "../../src/runtime/array-object.ts"
import { JSObject } from "../../src/runtime/object.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { SymbolValue, type Value } from "../../src/runtime/value.ts"
import { Vm, type VmStatus } from "../../src/vm/index.ts"
import { runWithRoundtrips } from "../snapshot/engine-roundtrip.ts"

export const start = (source: string): { vm: Vm; realm: Realm } => {
  const checked = checkProgram(source)
  if (!checked.ok) throw new Error(`front end: ${checked.diagnostic.kind}: ${checked.diagnostic.message}`)
  const realm = createRealm()
  return { vm: new Vm(realm, checked.program, compileForVm(checked.program)), realm }
}

/** Runs until the program settles or is idle; budget per slice. Round-trip mode saves and restores it as it goes. */
export const runToEnd = (source: string, budget = 1_000_000): { status: VmStatus; realm: Realm } => {
  if (process.env["CODEMODE_ROUNDTRIP"] === "1") return runWithRoundtrips(source)
  const { vm, realm } = start(source)
  for (let i = 0; i < 100_000; i++) {
    const status = vm.run(budget)
    if (status.kind !== "yielded") return { status, realm }
  }
  throw new Error("program did not finish")
}

/** A sandbox value as host data: arrays, plain objects by own enumerable string keys, errors as "Name: message". */
export const toHost = (v: Value, seen = new Set<JSObject>()): unknown => {
  if (v instanceof SymbolValue) return `Symbol(${v.description ?? ""})`
  if (!(v instanceof JSObject)) return v
  if (seen.has(v)) return "[Circular]"
  seen.add(v)
  if (v.kind === "Error") return `${String(v.lookup("name")?.value)}: ${String(v.lookup("message")?.value)}`
  if (v instanceof ArrayObject) {
    const out: unknown[] = []
    for (let i = 0; i < v.length; i++) {
      const p = v.GetOwnProperty(String(i))
      out.push(p === undefined ? "<hole>" : toHost(p.value, seen))
    }
    return out
  }
  if (v.isCallable()) return `function ${String(v.properties.get("name")?.value ?? "")}`
  const out: Record<string, unknown> = {}
  for (const k of v.OwnPropertyKeys()) {
    if (typeof k !== "string") continue
    const p = v.GetOwnProperty(k)
    if (p === undefined || !p.enumerable) continue
    out[k] = p.accessor ? "<accessor>" : toHost(p.value, seen)
  }
  return out
}

/** The program's value as host data; a throw becomes `{ threw }`, a pending program `{ status: "idle" }`. */
export const run = (source: string): unknown => {
  const { status } = runToEnd(source)
  if (status.kind === "completed") return toHost(status.value)
  if (status.kind === "threw") return { threw: toHost(status.value) }
  return { status: status.kind }
}

/** JSON of the program's result, or "Name: message" of what it threw, from inside the sandbox. */
const probe = (source: string): string =>
  `try { return JSON.stringify(await (async () => {\n${source}\n})()) } catch (e) { return e instanceof Error ? "threw " + e.name + ": " + e.message : "threw " + String(e) }`

export const v8 = async (source: string): Promise<unknown> => {
  const result = nodeVm.runInNewContext(`(async function () {\n${probe(source)}\n})()`, {}, { timeout: 2000 }) as Promise<unknown>
  return await result
}

export const ours = (source: string): unknown => {
  const { status } = runToEnd(probe(source))
  return status.kind === "completed" ? status.value : { status: status.kind, value: toHost((status as { value?: Value }).value) }
}

/** Asserts that each program returns the same JSON (or throws the same error) on the VM as on V8. */
export const sameAsV8 = async (programs: ReadonlyArray<string>): Promise<void> => {
  for (const source of programs) expect(ours(source), source).toEqual(await v8(source))
}
