/**
 * The scalars JSON cannot write, as both of our JSON codecs write them: the heap codec of snapshots
 * (heap-codec.ts) and the wire form of values crossing to extensions, which a saved state also holds
 * (host/extension-values.ts). NaN, the infinities and -0 go by a tag; bytes go as canonical base64, checked on the
 * way back since a saved state is untrusted input.
 */

export type NumberTag = "NaN" | "Infinity" | "-Infinity" | "-0"

/** The tag of a number JSON cannot write, or undefined for one it can. */
export const numberTag = (x: number): NumberTag | undefined => {
  if (Number.isNaN(x)) return "NaN"
  if (x === Infinity) return "Infinity"
  if (x === -Infinity) return "-Infinity"
  if (Object.is(x, -0)) return "-0"
  return undefined
}

/** The number a tag stands for, or undefined when it is no tag. */
export const taggedNumber = (tag: unknown): number | undefined => {
  switch (tag) {
    case "NaN":
      return NaN
    case "Infinity":
      return Infinity
    case "-Infinity":
      return -Infinity
    case "-0":
      return -0
    default:
      return undefined
  }
}

export const bytesToBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")

/** The bytes of canonical base64 text (padded, no white space), or undefined for anything else. */
export const base64ToBytes = (text: unknown): Uint8Array | undefined => {
  if (typeof text !== "string" || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  return new Uint8Array(Buffer.from(text, "base64"))
}
