/**
 * What a small object costs: it is its own property store, holding its first values in itself, and objects of a
 * kind get the slots they use, not a fixed guess. Programs build tens of thousands of them, and each allocation is work for the collector.
 */
import { describe, expect, it } from "vitest"
import { JSObject } from "../../src/runtime/object.ts"
import { literalShape } from "../../src/runtime/property-store.ts"
import { SymbolValue } from "../../src/runtime/value.ts"

// Keys no other test uses: the shapes (and what they learn) are shared by the whole process.
const record = (keys: ReadonlyArray<string>): JSObject => {
  const o = new JSObject(null)
  keys.forEach((k, i) => o.properties.add(k, i))
  return o
}
/** The slot array past the object's own fields. */
const moreSlotsOf = (o: JSObject): unknown[] => (o as unknown as { rest: unknown[] }).rest

describe("property store", () => {
  it("is the object itself", () => {
    const o = record(["store-self"])
    expect(o.properties).toBe(o)
    expect(o.properties.read("store-self")).toBe(0)
  })

  it("keeps an object's first four values in the object itself", () => {
    const o = record(["inline-a", "inline-b", "inline-c", "inline-d"])
    expect(moreSlotsOf(o)).toBe(moreSlotsOf(new JSObject(null)))
    expect(["inline-a", "inline-b", "inline-c", "inline-d"].map((k) => o.properties.read(k))).toEqual([0, 1, 2, 3])
  })

  it("gives the rest as many slots as the most keys an object starting with the same key has had", () => {
    record(["width-a", "width-b", "width-c", "width-d", "width-e", "width-f"])
    const o = record(["width-a", "width-b", "width-c", "width-d", "width-e"])
    expect(moreSlotsOf(o)).toHaveLength(2)
    expect(o.properties.read("width-e")).toBe(4)
    o.properties.add("width-g", 5)
    o.properties.add("width-h", 6)
    expect(["width-e", "width-g", "width-h"].map((k) => o.properties.read(k))).toEqual([4, 5, 6])
    expect(moreSlotsOf(record(["width-a", "width-x", "width-y", "width-z", "width-w"]))).toHaveLength(3)
  })

  it("makes a literal's object in one step, with the shape adding its keys one by one gives", () => {
    const keys = ["literal-a", "literal-b", "literal-c", "literal-d", "literal-e"]
    const o = new JSObject(null)
    o.adoptShape(literalShape(keys))
    keys.forEach((_, i) => o.setSlotAt(i, i * 10))
    expect(o.hasShape(record(keys).cacheableShape()!)).toBe(true)
    expect(keys.map((k) => o.properties.read(k))).toEqual([0, 10, 20, 30, 40])
    o.properties.add("literal-f", 50)
    expect(o.OwnPropertyKeys()).toEqual([...keys, "literal-f"])
  })

  it("turns slots into records and back to a dictionary without losing values", () => {
    const o = record(["dict-a", "dict-b", "dict-c", "dict-d", "dict-e", "dict-f"])
    o.properties.get("dict-b")!.writable = false
    o.properties.delete("dict-c")
    expect(o.OwnPropertyKeys()).toEqual(["dict-a", "dict-b", "dict-d", "dict-e", "dict-f"])
    expect(["dict-a", "dict-b", "dict-d", "dict-e", "dict-f"].map((k) => o.properties.peek(k)?.value)).toEqual([0, 1, 3, 4, 5])
    expect(o.properties.peek("dict-b")?.writable).toBe(false)
  })

  it("says whether a dictionary may hold an index key without searching it", () => {
    const o = record(["dict-i-a", "dict-i-b"])
    o.properties.delete("dict-i-a")
    expect(o.properties.mayHaveIndexKey()).toBe(false)
    o.properties.add("dict-i-c", 0)
    expect(o.properties.mayHaveIndexKey()).toBe(false)
    o.properties.add("12", 0)
    expect(o.properties.mayHaveIndexKey()).toBe(true)
    const indexed = record(["dict-j-a", "3"])
    indexed.properties.delete("dict-j-a")
    expect(indexed.properties.mayHaveIndexKey()).toBe(true)
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

  it("gives objects without keys no slot array of their own", () => {
    expect(moreSlotsOf(new JSObject(null))).toBe(moreSlotsOf(new JSObject(null)))
  })
})
