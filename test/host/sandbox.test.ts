/**
 * The `tools` and `search` globals as sandbox objects (src/host/sandbox-tools.ts, search-global.ts), driven
 * directly on a realm: what a tool function does when called, what a missing name yields, what search returns.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { createRealm } from "../../src/intrinsics/index.ts"
import { fromData, toData } from "../../src/host/data.ts"
import { CallLedger } from "../../src/host/ledger.ts"
import { installTools, NamespaceObject, ToolFunction } from "../../src/host/sandbox-tools.ts"
import { installSearch } from "../../src/host/search-global.ts"
import * as Tool from "../../src/host/tool.ts"
import { buildIndex } from "../../src/host/tree.ts"
import { Termination } from "../../src/runtime/completion.ts"
import { ErrorObject } from "../../src/runtime/errors.ts"
import type { NativeFunction } from "../../src/runtime/function-object.ts"
import { JSObject } from "../../src/runtime/object.ts"
import type { PromiseObject } from "../../src/runtime/promise.ts"
import type { Value } from "../../src/runtime/value.ts"

const lookup = Tool.make({ description: "Look up an order by ID", input: Schema.Struct({ id: Schema.String }), execute: () => Effect.void })

const setup = (maxToolCalls?: number) => {
  const realm = createRealm()
  const index = buildIndex({ orders: { lookup }, files: lookup, "files.read": lookup })
  const ledger = new CallLedger("run", maxToolCalls)
  installTools({ realm, index, ledger })
  installSearch(realm)
  const get = (o: JSObject, key: string) => o.lookup(key)?.value
  const tools = get(realm.globalObject, "tools") as JSObject
  const call = (f: Value, ...args: Value[]) => (f as NativeFunction).impl(realm, undefined, args, undefined, f as NativeFunction)
  return { realm, ledger, tools, get, call }
}

describe("the tools global", () => {
  it("is a non-enumerable global of read-only, enumerable namespaces and tool functions", () => {
    const { realm, tools, get } = setup()
    const p = realm.globalObject.GetOwnProperty("tools")!
    expect([p.enumerable, p.writable, p.configurable]).toEqual([false, true, true])
    expect(tools).toBeInstanceOf(NamespaceObject)
    expect(tools.OwnPropertyKeys()).toEqual(["orders", "files"])
    const orders = tools.GetOwnProperty("orders")!
    expect([orders.enumerable, orders.writable]).toEqual([true, false])
    const files = get(tools, "files") as JSObject
    expect(files).toBeInstanceOf(ToolFunction)
    expect(files.isCallable()).toBe(true)
    expect(get(files, "read")).toBeInstanceOf(ToolFunction)
  })

  it("a tool call copies its argument, admits the call and returns a pending promise", () => {
    const { realm, ledger, tools, get, call } = setup()
    const arg = fromData(realm, { id: "a", nested: { n: 1 } }) as JSObject
    const promise = call(get(get(tools, "orders") as JSObject, "lookup"), arg) as PromiseObject
    expect(promise.state).toBe("pending")
    expect(ledger.toolCalls).toEqual([{ path: "tools.orders.lookup", key: "run:1" }])
    const request = realm.hostCalls[0]!
    expect(request.capability.promise).toBe(promise)
    expect(request.args[0]).not.toBe(arg)
    ;(get(arg, "nested") as JSObject).properties.get("n")!.value = 2
    expect(toData(request.args[0])).toEqual({ id: "a", nested: { n: 1 } })
  })

  it("a missing name yields a function that rejects with UnknownTool, and is not admitted", () => {
    const { ledger, tools, get, call } = setup()
    const orders = get(tools, "orders") as JSObject
    const missing = get(orders, "lokup")
    expect(missing).toBeInstanceOf(ToolFunction)
    const promise = call(missing) as PromiseObject
    expect(promise.state).toBe("rejected")
    const error = promise.result as ErrorObject
    expect(error).toBeInstanceOf(ErrorObject)
    expect(error.hostDiagnostic).toEqual({ kind: "UnknownTool", message: "tools.orders.lokup is not a tool. Did you mean tools.orders.lookup?", path: "tools.orders.lokup" })
    expect(ledger.toolCalls).toEqual([])
    // [[Get]] itself answers too: engines whose fast path defers to an overridden Get see the same stand-in.
    const viaGet = orders.Get("lokup", orders).next()
    expect(viaGet.done && viaGet.value).toBeInstanceOf(ToolFunction)
    expect(orders.Get).not.toBe(JSObject.prototype.Get)
    // Deeper missing names chain, so a mistyped namespace still gets a suggestion.
    const deep = call(get(get(tools, "ordrs") as JSObject, "lookup")) as PromiseObject
    expect((deep.result as ErrorObject).hostDiagnostic?.message).toBe("tools.ordrs.lookup is not a tool. Did you mean tools.orders.lookup?")
  })

  it("missing names do not exist for in, keys or descriptors, and then/toJSON are never stood in for", () => {
    const { tools, get } = setup()
    const orders = get(tools, "orders") as JSObject
    expect(orders.HasProperty("lokup")).toBe(false)
    expect(orders.GetOwnProperty("lokup")).toBeUndefined()
    expect(get(orders, "then")).toBeUndefined()
    expect(get(orders, "toJSON")).toBeUndefined()
    expect(get(orders, "hasOwnProperty")).toBeDefined()
  })

  it("a call over maxToolCalls ends the run with an uncatchable ToolCallLimitExceeded", () => {
    const { tools, get, call } = setup(1)
    const f = get(get(tools, "orders") as JSObject, "lookup")
    call(f)
    expect(() => call(f)).toThrow(Termination)
  })
})

describe("the search global", () => {
  it("returns a plain page with non-enumerable then/catch/finally, and records the call", () => {
    const { realm, ledger, get, call } = setup()
    const page = call(get(realm.globalObject, "search"), "orders.lookup") as JSObject
    expect(toData(page)).toEqual({
      items: [{ path: "tools.orders.lookup", description: "Look up an order by ID", signature: "tools.orders.lookup(input: { id: string }): Promise<void>" }],
      total: 1,
      offset: 0,
      limit: 20,
      hasMore: false,
    })
    for (const m of ["then", "catch", "finally"]) expect(page.GetOwnProperty(m)?.enumerable).toBe(false)
    expect(ledger.toolCalls).toEqual([{ path: "search", key: "run:1" }])
  })

  it("counts toward maxToolCalls", () => {
    const { realm, get, call } = setup(1)
    call(get(realm.globalObject, "search"))
    expect(() => call(get(realm.globalObject, "search"))).toThrow(Termination)
  })
})
