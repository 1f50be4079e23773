/** TextDecoder's plain-data decoders against the host's WHATWG decoders, on random and chunked input. */
import { describe, expect, it } from "vitest"
import type { JSObject } from "../../src/runtime/object.ts"
import type { Value } from "../../src/runtime/value.ts"
import { CreateUint8ArrayFromBytes } from "../../src/intrinsics/bytes-objects.ts"
import { constructFunction, createRealm, global, invoke, toSandbox } from "./support.ts"

const realm = createRealm()
const decoder = (label: string, options: Record<string, unknown> = {}): JSObject =>
  constructFunction(realm, global(realm, "TextDecoder"), [label, toSandbox(realm, options)])
const bytesOf = (b: Uint8Array): Value => CreateUint8ArrayFromBytes(realm, b)

/** A deterministic pseudo-random generator (xorshift32). */
const rng = (seed: number) => () => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 2 ** 32
}

/** Random bytes biased towards UTF-8 lead/continuation bytes and surrogate code units. */
const randomBytes = (next: () => number, n: number): Uint8Array => {
  const pool = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xd8, 0xdc, 0xfe, 0xbb]
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = next() < 0.7 ? pool[Math.floor(next() * pool.length)]! : Math.floor(next() * 256)
  return out
}

describe("TextDecoder matches the host's decoders", () => {
  for (const label of ["utf-8", "utf-16le", "utf-16be", "windows-1252"]) {
    it(`${label}: one call and chunked streaming`, () => {
      const next = rng(label.length * 7919)
      for (let round = 0; round < 300; round++) {
        const input = randomBytes(next, Math.floor(next() * 24))
        const expected = new TextDecoder(label).decode(input)
        expect(invoke(realm, decoder(label), "decode", [bytesOf(input)])).toBe(expected)
        // The same bytes in random chunks through one streaming decoder.
        const d = decoder(label)
        let text = ""
        for (let i = 0; i < input.length; ) {
          const size = 1 + Math.floor(next() * 4)
          text += invoke(realm, d, "decode", [bytesOf(input.subarray(i, i + size)), toSandbox(realm, { stream: true })]) as string
          i += size
        }
        text += invoke(realm, d, "decode", []) as string
        expect(text).toBe(expected)
      }
    })
  }
  it("fatal mode throws exactly when the host's does", () => {
    const next = rng(12345)
    for (let round = 0; round < 300; round++) {
      const input = randomBytes(next, Math.floor(next() * 12))
      let hostThrows = false
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(input)
      } catch {
        hostThrows = true
      }
      let ours = false
      try {
        invoke(realm, decoder("utf-8", { fatal: true }), "decode", [bytesOf(input)])
      } catch {
        ours = true
      }
      expect(ours).toBe(hostThrows)
    }
  })
})
