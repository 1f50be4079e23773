/**
 * Attacks on the sandbox, part two: a program must not change host objects. Keys such as `__proto__`,
 * `constructor` and `prototype` cross the boundary as the plain own keys JSON.parse would make of them — in tool
 * inputs (JSON Schema, Effect Schema), tool outputs, extension arguments and results, errors and hook calls — and
 * after every probe the host's Object.prototype and Array.prototype are untouched. The program's own prototypes
 * are its business: polluting them changes nothing outside the run, nor in the next run.
 */
import { afterEach, describe, expect, it } from "vitest"
import { Effect, Schema } from "effect"
import { CodeMode, Extension, Tool } from "../../src/index.ts"
import { engines } from "../engines.ts"

const hostIsClean = () => {
  for (const proto of [Object.prototype, Array.prototype, Function.prototype, Error.prototype]) {
    expect(Object.getOwnPropertyNames(proto).filter((k) => /polluted|injected/.test(k))).toEqual([])
  }
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
}

const PAYLOADS = [
  `JSON.parse('{"__proto__": {"polluted": 1}}')`,
  `({ ["__proto__"]: { polluted: 1 } })`,
  `JSON.parse('{"constructor": {"prototype": {"polluted": 1}}}')`,
  `({ constructor: { prototype: { polluted: 1 } }, prototype: { polluted: 1 } })`,
  `JSON.parse('{"a": [{"__proto__": {"polluted": 1}}]}')`,
]

describe.each(engines)("host pollution (%s)", (engine) => {
  afterEach(hostIsClean)

  const received: unknown[] = []
  const echo = Tool.make({
    description: "echo",
    input: { type: "object" },
    output: { type: "object" },
    execute: (input: unknown) => Effect.sync(() => (received.push(input), input)),
  })
  const typedEcho = Tool.make({
    description: "echo with an Effect Schema record",
    input: Schema.Record(Schema.String, Schema.Unknown),
    output: Schema.Unknown,
    execute: (input: unknown) => Effect.sync(() => (received.push(input), input)),
  })
  const merged: Array<Record<string, unknown>> = []
  const ext = Extension.make({
    name: "x",
    globals: {
      id: (v: unknown) => v,
      // A careless host merge (Object.assign of an argument) meets only own data keys.
      merge: (v: Record<string, unknown>) => (merged.push(Object.assign({}, v)), merged.length),
    },
  })
  const runtime = CodeMode.make({ tools: { echo, typedEcho }, extensions: [ext], engine, limits: { timeoutMs: 5_000 } })
  const run = (code: string) => Effect.runPromise(runtime.execute(code))

  for (const payload of PAYLOADS) {
    it(`a tool gets ${payload} as JSON.parse would give it, and gives it back the same way`, async () => {
      received.length = 0
      const r = await run(`const v = await tools.echo(${payload}); [JSON.stringify(v), ({}).polluted ?? null, Object.keys(v)]`)
      const expected = eval(`(${payload})`) as object
      expect(r).toMatchObject({ ok: true, value: [JSON.stringify(expected), null, Object.keys(expected)] })
      expect(received).toHaveLength(1)
      const got = received[0] as object
      expect(Object.getPrototypeOf(got)).toBe(Object.prototype)
      expect(Object.keys(got)).toEqual(Object.keys(expected))
      expect(JSON.stringify(got)).toBe(JSON.stringify(expected))
    })
  }

  it("an Effect Schema record decodes __proto__ as an own key, never as the decoded object's prototype", async () => {
    received.length = 0
    const r = await run(`await tools.typedEcho(JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}'))`)
    expect(r).toMatchObject({ ok: true, value: { a: 1 } })
    const got = received[0] as Record<string, unknown>
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype)
    expect(got["polluted"]).toBeUndefined()
  })

  it("extension arguments and results carry __proto__ as an own key; a host Object.assign of them pollutes nothing", async () => {
    merged.length = 0
    const r = await run(
      `const back = id(JSON.parse('{"__proto__": {"polluted": 1}, "k": 2}'))
       merge(JSON.parse('{"__proto__": {"polluted": 1}}'))
       const e = new TypeError("t"); Object.defineProperty(e, "__proto__", { value: { polluted: 1 }, enumerable: true })
       const err = id(e)
       return [Object.keys(back), back.polluted ?? null, Object.getPrototypeOf(back) === Object.prototype, err instanceof TypeError, err.polluted ?? null]`,
    )
    expect(r).toMatchObject({ ok: true, value: [["__proto__", "k"], null, true, true, null] })
    // The host's Object.assign gave its own copy that prototype, as it would with JSON.parse's output; nothing else.
    expect(merged).toHaveLength(1)
  })

  it("polluting the sandbox's own prototypes stays in the run", async () => {
    const first = await run(
      `Object.prototype.polluted = 1; Array.prototype.polluted = 1; Object.prototype.toJSON = () => "hijacked"
       const v = await tools.echo({ a: 1 })
       return [v.a, ({}).polluted]`,
    )
    expect(first).toMatchObject({ ok: true, value: [1, 1] })
    const second = await run("[({}).polluted ?? null, [].polluted ?? null, typeof Object.prototype.toJSON]")
    expect(second).toMatchObject({ ok: true, value: [null, null, "undefined"] })
  })

  it("a result holding __proto__ keys reaches the host as own keys", async () => {
    const r = await run(`JSON.parse('{"__proto__": {"polluted": 1}}')`)
    expect(r.ok).toBe(true)
    if (r.ok) {
      const value = r.value as Record<string, unknown>
      expect(Object.keys(value)).toEqual(["__proto__"])
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
      expect(value["polluted"]).toBeUndefined()
    }
  })
})
