/**
 * Signed snapshots (`CodeMode.make({ snapshotKey })`). A saved state is the whole run — its limits, its admitted
 * calls, its heap — so a host that keeps states where others can write them (a database row, a client's hands)
 * signs them: the signature is an HMAC-SHA-256, under the runtime's key, of the snapshot's JSON text without the
 * signature (`format`, `build`, `run`, `heap`, in that order, as `JSON.stringify` writes them). It is stored in
 * the snapshot itself, so it survives the JSON and the binary forms alike.
 *
 * Verification never trusts the input: the text signed is made from the input once, checked, and the snapshot
 * resumed is parsed back from that same text, so nothing read after the check (a getter, a shared object
 * changed later) can differ from what was signed.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto"
import { SnapshotError } from "./errors.ts"
import { checkEnvelope, parseSnapshot, textOfBytes, type Snapshot } from "./format.ts"

/**
 * The key of `snapshotKey`: a string (its UTF-8 bytes) or bytes, at least 16 bytes long.
 *
 * @since 0.1.0
 * @category models
 */
export type SnapshotKey = string | Uint8Array

const MIN_KEY_BYTES = 16

/** The key's bytes; a key that is not one, or too short to resist guessing, is a TypeError at `make`. */
export const checkSnapshotKey = (key: unknown): Uint8Array => {
  let bytes: Buffer
  if (typeof key === "string") bytes = Buffer.from(key, "utf8")
  else if (key instanceof Uint8Array) bytes = Buffer.from(key)
  else throw new TypeError("snapshotKey must be a string or a Uint8Array")
  if (bytes.length < MIN_KEY_BYTES) throw new TypeError(`snapshotKey must be at least ${MIN_KEY_BYTES} bytes long, got ${bytes.length}`)
  return bytes
}

const unsignedText = (s: { readonly format: unknown; readonly build: unknown; readonly run: unknown; readonly heap: unknown }): string =>
  JSON.stringify({ format: s.format, build: s.build, run: s.run, heap: s.heap })

/**
 * The runtime's key as a KeyObject, made once per key: given raw bytes, createHmac makes one per call, which was
 * about half of what verifying a small snapshot cost.
 */
const keyObjects = new WeakMap<Uint8Array, KeyObject>()

const mac = (key: Uint8Array, text: string): Buffer => {
  let k = keyObjects.get(key)
  if (k === undefined) keyObjects.set(key, (k = createSecretKey(key)))
  return createHmac("sha256", k).update(text, "utf8").digest()
}

/** `snapshot` with its signature under `key`. */
export const signSnapshot = (snapshot: Snapshot, key: Uint8Array): Snapshot => ({
  format: snapshot.format,
  build: snapshot.build,
  run: snapshot.run,
  heap: snapshot.heap,
  signature: mac(key, unsignedText(snapshot)).toString("base64"),
})

/** The snapshot `input` holds, if it is signed under `key`; SnapshotError when unsigned, altered or not a snapshot. */
export const verifySnapshot = (input: unknown, key: Uint8Array): Snapshot => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new SnapshotError("a snapshot must be an object")
  const o = input as Record<string, unknown>
  const signature = o["signature"]
  if (signature === undefined) throw new SnapshotError("the snapshot is not signed, and this runtime accepts only signed snapshots")
  if (typeof signature !== "string") throw new SnapshotError("the snapshot's signature is not a string")
  let text: string
  try {
    text = unsignedText({ format: o["format"], build: o["build"], run: o["run"], heap: o["heap"] })
  } catch (e) {
    throw new SnapshotError(`the snapshot cannot be read: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (typeof text !== "string") throw new SnapshotError("a snapshot must be an object")
  const given = Buffer.from(signature, "base64")
  const expected = mac(key, text)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new SnapshotError("the snapshot's signature does not match: it was altered, or signed with another key")
  }
  return checkEnvelope({ ...(JSON.parse(text) as object), signature })
}

/** The end of a signed snapshot's JSON text as `toBytes` writes it: the signature, last, in base64. */
const SIGNATURE_LAST = /,"signature":"([A-Za-z0-9+/]*={0,2})"}$/

/**
 * The snapshot `bytes` hold, if it is signed under `key`, as `verifySnapshot(fromBytes(bytes), key)` says. A state
 * `toBytes` wrote ends with its signature, and what comes before it is the very text that was signed: the MAC is
 * checked on that text and the text parsed once, instead of parsing it, writing it again to check it, and parsing
 * that (two thirds of what reading a small state cost). Any other text takes the long way, which judges it.
 */
export const fromSignedBytes = (bytes: Uint8Array, key: Uint8Array): Snapshot => {
  const text = textOfBytes(bytes)
  const at = text.lastIndexOf(',"signature":"')
  const signature = at < 0 ? undefined : SIGNATURE_LAST.exec(text.slice(at))?.[1]
  if (signature !== undefined) {
    const unsigned = `${text.slice(0, at)}}`
    const given = Buffer.from(signature, "base64")
    const expected = mac(key, unsigned)
    if (given.length === expected.length && timingSafeEqual(given, expected)) return checkEnvelope({ ...(JSON.parse(unsigned) as object), signature })
  }
  return verifySnapshot(parseSnapshot(text), key)
}
