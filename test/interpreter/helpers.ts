/**
 * Test helpers for the tree-walker: run a program to completion in a fresh realm and read its result back as
 * host data (the VM's helpers' conversion), for quick checks of one engine without the host.
 */
import { createRealm } from "../../src/intrinsics/index.ts"
import { Interpreter, type InterpreterStatus } from "../../src/interpreter/index.ts"
import { checkProgram } from "../../src/language/index.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { toHost } from "../vm/helpers.ts"

export const runToEnd = (source: string, budget = 1_000_000): { status: InterpreterStatus; realm: Realm } => {
  const checked = checkProgram(source)
  if (!checked.ok) throw new Error(`front end: ${checked.diagnostic.kind}: ${checked.diagnostic.message}`)
  const realm = createRealm()
  const engine = new Interpreter(realm, checked.program)
  for (let i = 0; i < 100_000; i++) {
    const status = engine.run(budget)
    if (status.kind !== "yielded") return { status, realm }
  }
  throw new Error("program did not finish")
}

/** Runs a program and returns its completed value as host data; a throw becomes `{ threw: ... }`. */
export const run = (source: string, budget?: number): unknown => {
  const { status } = runToEnd(source, budget)
  if (status.kind === "completed") return toHost(status.value)
  if (status.kind === "threw") return { threw: toHost(status.value) }
  return { status: status.kind }
}
