/**
 * The binary form of a snapshot (snapshot/format.ts): a small state's payload is one deflate stored block written
 * without zlib, a larger one is compressed, and both are raw deflate that any inflater reads; a payload compressed
 * by any deflater is read back.
 */
import { createHash } from "node:crypto"
import { deflateRawSync, inflateRawSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { fromBytes, toBytes, type Snapshot } from "../../src/snapshot/format.ts"
import { SnapshotError } from "../../src/snapshot/errors.ts"

const HEADER = 10
const DIGEST = 16

const stateOf = (text: string): Snapshot => ({ format: 1, build: "test", run: { text }, heap: { root: null, records: [] } })

/** Bytes of the layout around any `payload` of `json`, as a writer other than toBytes would make them. */
const frame = (json: Buffer, payload: Buffer): Uint8Array => {
  const header = Buffer.alloc(HEADER)
  header.write("CMSN", 0, "latin1")
  header.writeUInt16BE(1, 4)
  header.writeUInt32BE(json.length, 6)
  const digest = createHash("sha256").update(header).update(payload).digest().subarray(0, DIGEST)
  return Buffer.concat([header, digest, payload])
}

describe("snapshot bytes", () => {
  it("store a small state as raw deflate that zlib inflates, and compress a large one", () => {
    const small = stateOf("a".repeat(1000))
    const large = stateOf("b".repeat(100_000))
    for (const state of [small, large]) {
      const bytes = toBytes(state)
      const json = inflateRawSync(bytes.subarray(HEADER + DIGEST)).toString("utf8")
      expect(JSON.parse(json)).toEqual(state)
      expect(fromBytes(bytes)).toEqual(state)
    }
    expect(toBytes(small).length).toBeGreaterThan(1000)
    expect(toBytes(large).length).toBeLessThan(10_000)
  })

  it("read payloads compressed at any level, and refuse one whose length differs from the declared one", () => {
    const state = stateOf("c".repeat(500))
    const json = Buffer.from(JSON.stringify(state), "utf8")
    for (const level of [0, 1, 9]) expect(fromBytes(frame(json, deflateRawSync(json, { level })))).toEqual(state)
    const short = Buffer.from(JSON.stringify(stateOf("c")), "utf8")
    const stored = Buffer.alloc(5 + short.length)
    stored[0] = 1
    stored.writeUInt16LE(short.length, 1)
    stored.writeUInt16LE(~short.length & 0xffff, 3)
    short.copy(stored, 5)
    expect(() => fromBytes(frame(json, stored))).toThrow(SnapshotError)
  })
})
