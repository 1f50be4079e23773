/**
 * What a small object costs: it is its own property store, and objects of a kind get the slots they use, not a
 * fixed guess. Programs build tens of thousands of them, and each allocation is work for the collector.
 */
import { describe, expect, it } from "vitest"
import { JSObject } from "../../src/runtime/object.ts"

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

  it("gives objects without keys no slots of their own", () => {
    expect((new JSObject(null) as unknown as { slotValues: unknown[] }).slotValues).toBe(
      (new JSObject(null) as unknown as { slotValues: unknown[] }).slotValues,
    )
  })
})
