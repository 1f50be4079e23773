/**
 * The data boundary (src/host/data.ts): host values copied in with JSON semantics, 32 levels at most.
 */
import { describe, expect, it } from "@effect/vitest"
import { DataError, hostToData, MAX_DEPTH, toData, fromData } from "../../src/host/data.ts"
import { createRealm } from "../../src/intrinsics/index.ts"

const nest = (n: number): unknown => (n === 0 ? 0 : [nest(n - 1)])

describe("hostToData", () => {
  it("follows JSON.stringify: toJSON, omitted functions and undefined, null for non-finite numbers", () => {
    class Row {
      readonly id = "r1"
      readonly total = Infinity
      method() {}
    }
    expect(hostToData({ d: new Date(0), r: new Row(), f: () => 1, u: undefined, a: [undefined, () => 1, -0] })).toEqual({
      d: "1970-01-01T00:00:00.000Z",
      r: { id: "r1", total: null },
      a: [null, null, 0],
    })
    expect(hostToData(undefined)).toBeUndefined()
  })

  it("refuses what is not data", () => {
    for (const v of [1n, new Map(), new Set(), Promise.resolve(1), new Uint8Array(2)]) expect(() => hostToData({ v })).toThrow(DataError)
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(() => hostToData(cycle)).toThrow(DataError)
  })

  it("allows 32 nested levels, not 33", () => {
    expect(MAX_DEPTH).toBe(32)
    expect(() => hostToData(nest(32))).not.toThrow()
    expect(() => hostToData(nest(33))).toThrow(DataError)
  })

  it("keeps __proto__ as an ordinary key both ways", () => {
    const d = hostToData(JSON.parse('{"__proto__": {"x": 1}}'))!
    expect(Object.keys(d)).toEqual(["__proto__"])
    const realm = createRealm()
    expect(Object.keys(toData(fromData(realm, d))!)).toEqual(["__proto__"])
  })
})
