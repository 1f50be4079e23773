/**
 * Runs of one runtime share one template realm (src/runtime/realm-fork.ts) and must still be strangers: whatever
 * a run does to built-ins or globals — replacing methods, changing prototypes, freezing, drawing from Math.random,
 * counting on the console, registering symbols — is invisible to the next run, on both engines. The check is a
 * fingerprint of everything reachable from globalThis, taken by a program, before and after hostile runs: a list
 * of targeted changes, and one run that changes every object the fingerprint walks.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHostRealm, newRealm } from "../../src/host/realm-template.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { nameReachable } from "../../src/snapshot/realm-names.ts"
import { ENGINES, makeFor } from "./engines.ts"

/** Every object reachable from globalThis by own properties and prototypes, with what can be observed of it. */
const FINGERPRINT = `
  const seen = new Map()
  const queue = [[globalThis, "globalThis"]]
  const lines = []
  const ref = (v, path) => {
    if ((typeof v !== "object" && typeof v !== "function") || v === null) return typeof v === "symbol" ? String(v) : typeof v + ":" + String(v)
    if (!seen.has(v)) { seen.set(v, path); queue.push([v, path]) }
    return "@" + seen.get(v)
  }
  seen.set(globalThis, "globalThis")
  // The modules of built-in globals, which only require reaches.
  for (const m of ["url", "util", "buffer"]) ref(require(m), "require(" + m + ")")
  for (let i = 0; i < queue.length; i++) {
    const [o, path] = queue[i]
    lines.push(path + " proto=" + ref(Object.getPrototypeOf(o), path + ".__proto__") + " ext=" + Object.isExtensible(o) + " frozen=" + Object.isFrozen(o))
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key)
      const k = path + "." + String(key)
      const attrs = [d.enumerable, d.configurable, d.writable].join(",")
      lines.push(k + " " + attrs + " " + ("value" in d ? ref(d.value, k) : ref(d.get, k + "[get]") + " " + ref(d.set, k + "[set]")))
    }
  }
  lines.push("random " + [Math.random(), Math.random()].join(","))
  console.count("c")
  lines.push("symbol " + String(Symbol.keyFor(Symbol.for("isolation"))))
  return lines.join("\\n")
`

/** Each line tries to leave a mark on the realm that a later run could see. */
const HOSTILE = [
  `Array.prototype.push = function () { return "hacked" }`,
  `Object.prototype.polluted = 1`,
  `Object.setPrototypeOf(Array.prototype, null)`,
  `Object.setPrototypeOf(Function.prototype, Array.prototype)`,
  `delete Array.prototype.map`,
  `Object.freeze(Object); Object.freeze(JSON); Object.freeze(Math); Object.seal(String.prototype)`,
  `Object.preventExtensions(globalThis.Promise.prototype)`,
  `Math.random(); Math.random(); Math.random = () => 4`,
  `console.count("c"); console.count("c"); console.group("g")`,
  `globalThis.leak = Symbol.for("isolation"); globalThis.x = 1; var y = 2`,
  `Date.now = () => 0; Date.prototype.getTime = () => 1`,
  `RegExp.$1 = "leak"; RegExp.prototype.exec = () => null; /a(b)/.test("ab")`,
  `Error.prototype.toString = () => "no"; Error.stackTraceLimit = 0`,
  `String.prototype.trim = () => "t"; Number.prototype.toFixed = null`,
  `Function.prototype.call = 1; Reflect.apply = null; Symbol.prototype.description = 2`,
  `Object.defineProperty(globalThis, "NaN", { value: 1 })`,
  `delete globalThis.JSON; delete globalThis.Map; globalThis.Set = null`,
  `require("url").URL = 1; require("util").leak = 2; Object.freeze(require("buffer")); search.x = 1; require.cache = {}`,
  `Array.prototype[Symbol.iterator] = function* () { yield "x" }; Iterator.prototype.map = null`,
  `Object.getPrototypeOf(function* () {}).prototype.next = null`,
  `Object.getPrototypeOf(async () => {}).constructor.x = 1`,
  `Array.prototype[Symbol.unscopables].at = false; Array.prototype.length = 5`,
  `Object.defineProperty(Object.prototype, "toString", { get() { throw 1 }, configurable: false })`,
]

/**
 * Changes every object reachable from globalThis (the walk of FINGERPRINT): each own property redefined with other
 * attributes and value, a property added, the prototype cut and extensions prevented. The walk is done first and
 * with the functions it needs held aside, so the changes cannot stop it half-way.
 */
const EVERYTHING = `
  const { ownKeys, defineProperty, setPrototypeOf, preventExtensions, getPrototypeOf } = Reflect
  const describe = Object.getOwnPropertyDescriptor
  const objects = [globalThis]
  const seen = new Set(objects)
  const visit = (v) => { if (((typeof v === "object" && v !== null) || typeof v === "function") && !seen.has(v)) { seen.add(v); objects.push(v) } }
  for (let i = 0; i < objects.length; i++) {
    const o = objects[i]
    visit(getPrototypeOf(o))
    for (const key of ownKeys(o)) {
      const d = describe(o, key)
      if ("value" in d) visit(d.value)
      else { visit(d.get); visit(d.set) }
    }
  }
  // Index loops from here on: the array iterator is among what changes.
  let changed = 0
  const count = objects.length
  for (let i = 0; i < count; i++) {
    const o = objects[i]
    const keys = ownKeys(o)
    for (let j = 0; j < keys.length; j++) {
      try {
        if (defineProperty(o, keys[j], { value: "leaked", writable: false, enumerable: true, configurable: false })) changed++
      } catch {} // an array's length takes numbers only
    }
    defineProperty(o, "leaked", { value: 1, writable: true, enumerable: true, configurable: true })
    setPrototypeOf(o, null)
    preventExtensions(o)
  }
  return [count, changed]
`

describe.each(ENGINES)("realm isolation (%s)", (engine) => {
  it("no run sees that an earlier run changed every object reachable from globalThis", async () => {
    const runtime = makeFor(engine)({ seed: "isolation" })
    const before = await Effect.runPromise(runtime.execute(FINGERPRINT))
    expect(before.ok).toBe(true)
    const hostile = await Effect.runPromise(runtime.execute(EVERYTHING))
    // Hundreds of built-ins, thousands of properties: the walk reached them all.
    if (!hostile.ok) throw new Error(JSON.stringify(hostile))
    const [objects, changed] = hostile.value as [number, number]
    expect(objects).toBeGreaterThan(500)
    expect(changed).toBeGreaterThan(1500)
    expect(await Effect.runPromise(runtime.execute(FINGERPRINT))).toEqual(before)
  })


  it("no run sees what an earlier run of the same runtime did to any built-in or global", async () => {
    // A fixed seed: every run then draws the same numbers, unless an earlier run could leak its generator state.
    const runtime = makeFor(engine)({ seed: "isolation" })
    const run = (code: string) => Effect.runPromise(runtime.execute(code))
    const before = await run(FINGERPRINT)
    expect(before.ok).toBe(true)
    for (const line of HOSTILE) {
      const r = await run(`try { ${line} } catch {} ; return 0`)
      expect(r.ok, line).toBe(true)
    }
    await run(HOSTILE.map((line) => `try { ${line} } catch {}`).join("\n"))
    const after = await run(FINGERPRINT)
    expect(after).toEqual(before)
    // And a fresh runtime sees the same realm too: the template behind every runtime was never touched.
    expect(await Effect.runPromise(makeFor(engine)({ seed: "isolation" }).execute(FINGERPRINT))).toEqual(before)
  })

  it("runs of the same source share its checked program, not the objects a run made from it", async () => {
    // A tagged template's object is made once per site and realm: a second run of the same text gets its own,
    // from its own Array.prototype, however the engine keeps what it worked out from the text.
    const runtime = makeFor(engine)()
    const code = `
      const tag = (strings) => strings
      const site = () => tag\`a\${1}b\`
      const t = site()
      const first = globalThis.seen === undefined
      globalThis.seen = true
      return [first, t === site(), Object.getPrototypeOf(t) === Array.prototype, Object.isFrozen(t), t.raw.join("|")]
    `
    for (let i = 0; i < 3; i++) expect(await Effect.runPromise(runtime.execute(code))).toMatchObject({ ok: true, value: [true, true, true, true, "a|b"] })
  })
})

describe("realm forks", () => {
  it("give each realm its own twins of the template's objects, copied on first use", () => {
    const a = newRealm()
    const b = newRealm()
    expect(a.intrinsic("%Array.prototype.map%")).not.toBe(b.intrinsic("%Array.prototype.map%"))
    expect(a.intrinsic("%Array.prototype%")).toBe(a.ArrayPrototype)
    expect(a.intrinsicNames.get(a.intrinsic("%Math%"))).toBe("%Math%")
    expect(a.symbolRegistry).not.toBe(b.symbolRegistry)
    // A fork makes only what it reaches: the realm of a run that touched nothing holds a handful of twins.
    expect(newRealm().fork!.made.length).toBeLessThan(10)
  })

  it("name the template's objects as a realm built afresh and walked for names is named", () => {
    // The template names what the families left unnamed in the walk that seals it; snapshots rely on the names.
    const fresh = createHostRealm()
    nameReachable(fresh)
    const names = (realm: Realm) => [...realm.ownIntrinsics].map(([name, o]) => `${name} ${realm.intrinsicNames.get(o)}`)
    expect(names(newRealm().fork!.template.realm)).toEqual(names(fresh))
  })
})
