/**
 * What a small object costs: it is its own property store, and objects of a kind get the slots they use, not a
 * fixed guess. Programs build tens of thousands of them, and each allocation is work for the collector.
 */
import { describe, expect, it } from "vitest"
import { JSObject } from "../../src/runtime/object.ts"
import { SymbolValue } from "../../src/runtime/value.ts"

// Keys no other test uses: the shapes (and what they learn) are shared by the whole process.
const record = (keys: ReadonlyArray<string>): JSObject => {
  const o = new JSObject(null)
  keys.forEach((k, i) => o.properties.add(k, i))
  return o
}
const slotsOf = (o: JSObject): number => (o as unknown as { slotValues: unknown[] }).slotValues.length

describe("property store", () => {
  it("is the object itself", () => {
    const o = record(["store-self"])
    expect(o.properties).toBe(o)
    expect(o.properties.read("store-self")).toBe(0)
  })

  it("gives an object as many slots as the most keys an object starting with the same key has had", () => {
    record(["width-a", "width-b"])
    expect(slotsOf(record(["width-a", "width-b"]))).toBe(2)
    record(["width-a", "width-c", "width-d"])
    expect(slotsOf(record(["width-a"]))).toBe(3)
  })

  it("lists keys already in order as they are, each time in a new array", () => {
    const o = record(["order-b", "order-a"])
    expect(o.properties.orderedKeys()).toEqual(["order-b", "order-a"])
    const keys = o.OwnPropertyKeys()
    expect(keys).toEqual(["order-b", "order-a"])
    keys.length = 0
    expect(o.OwnPropertyKeys()).toEqual(["order-b", "order-a"])
    expect(record(["order-b", "order-a"]).OwnPropertyKeys()).toEqual(["order-b", "order-a"])
  })

  it("orders the others: indices first, ascending, then strings, then symbols", () => {
    const s = new SymbolValue("order-s")
    const o = record(["order-x", "7", "order-y", "2"])
    o.properties.add(s, 0)
    o.properties.add("order-z", 0)
    expect(o.properties.orderedKeys()).toBeUndefined()
    expect(o.OwnPropertyKeys()).toEqual(["2", "7", "order-x", "order-y", "order-z", s])
  })

  it("gives objects without keys no slots of their own", () => {
    expect((new JSObject(null) as unknown as { slotValues: unknown[] }).slotValues).toBe(
      (new JSObject(null) as unknown as { slotValues: unknown[] }).slotValues,
    )
  })
})
