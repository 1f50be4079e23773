/**
 * `canonical` writes what `JSON.stringify` with a key-sorting replacer writes (the text stored seals and request
 * fingerprints were made from), though it uses the replacer only when a value's `toJSON` could change what it sees.
 */
import { describe, expect, it } from "vitest"
import { canonical } from "../../src/server/canonical.ts"

const reference = (value: unknown): string | undefined =>
  JSON.stringify(value, (_, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )

/** Random JSON-ish values: nested objects with keys in any order (integer-like ones too), arrays with holes. */
const random = (seed: number) => {
  let s = seed
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31)
  const keys = ["b", "a", "z", "10", "9", "0", "aa", "B", "é", "", "toJSONs", "__proto__x"]
  const make = (depth: number): unknown => {
    const r = next()
    if (depth > 4 || r < 0.3) return [1, -0, 1.5e300, NaN, "s\u0000\ud800", true, null, undefined, () => 1][Math.floor(next() * 9)]
    if (r < 0.55) {
      const a: Array<unknown> = Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1))
      if (next() < 0.2) a[a.length + 1] = make(depth + 1)
      return a
    }
    const o: Record<string, unknown> = {}
    for (let i = Math.floor(next() * 5); i > 0; i--) o[keys[Math.floor(next() * keys.length)]!] = make(depth + 1)
    return o
  }
  return make(0)
}

describe("canonical", () => {
  it("writes what the key-sorting replacer writes", () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const value = random(seed)
      expect(canonical(value), `seed ${seed}`).toBe(reference(value))
    }
  })

  it("leaves values with toJSON, and deeper ones, to the replacer", () => {
    const date = new Date(0)
    const custom = { toJSON: () => ({ b: 1, a: { d: 2, c: 3 } }) }
    let deep: unknown = { y: 1, x: 2 }
    for (let i = 0; i < 40; i++) deep = { z: deep, a: i }
    for (const value of [date, { when: date, b: [custom] }, custom, deep, [new Uint8Array([1, 2, 3])], { m: new Map([["a", 1]]) }]) {
      expect(canonical(value)).toBe(reference(value))
    }
    expect(canonical(custom)).toBe('{"a":{"c":3,"d":2},"b":1}')
  })

  it("fails on a cycle and a BigInt as the replacer does", () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle["self"] = cycle
    expect(() => reference(cycle)).toThrow(RangeError)
    expect(() => canonical(cycle)).toThrow(RangeError)
    expect(() => canonical({ n: 1n })).toThrow(TypeError)
  })
})
