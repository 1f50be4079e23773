/**
 * The snapshot format. A `Snapshot` is JSON: the format version and the build id first (so a reader can refuse a
 * state it cannot resume before reading anything else, as QuickJS's bytecode reader does), then the host's record
 * of the run (calls, limits, time used: opaque here) and the encoded heap (heap-codec.ts).
 *
 * `toBytes` / `fromBytes` give the compact binary form:
 *
 * ```
 * offset  size  field
 * 0       4     magic "CMSN"
 * 4       2     binary layout version (1), big-endian
 * 6       4     length of the JSON text in bytes, big-endian
 * 10      16    SHA-256 (first 16 bytes) of bytes 0..9 and of the payload
 * 26      ...   payload: the JSON text, raw-deflated (stored blocks for a small state)
 * ```
 *
 * The digest makes any flipped or missing byte a `SnapshotError` before anything is inflated or parsed; the
 * declared length bounds inflation (no decompression bomb) and must match exactly.
 *
 * A small state's payload is one raw deflate *stored* block, written and read here without zlib: setting up a zlib
 * stream costs more than a whole small suspend's other steps, and a few kilobytes gain little from compression.
 * It is still raw deflate, so any inflater reads it, and this reader inflates any other payload with zlib.
 */
import { createHash, hash } from "node:crypto"
import { SnapshotError } from "./errors.ts"
import type { EncodedHeap } from "./heap-codec.ts"

/** The JSON layout version; any change to the envelope or to the meaning of a field bumps it. */
export const FORMAT_VERSION = 1

/**
 * A suspended run's state, as JSON (spec: "`CodeMode.Snapshot` is JSON").
 *
 * @since 0.1.0
 * @category models
 */
export interface Snapshot {
  readonly format: number
  readonly build: string
  /** The host's record of the run: its id, source, limits, calls, time used. */
  readonly run: unknown
  readonly heap: EncodedHeap
  /** HMAC-SHA-256 (base64) of the rest, under the key of a runtime made with `snapshotKey` (signature.ts). */
  readonly signature?: string
}

const MAGIC = Buffer.from("CMSN", "latin1")
const LAYOUT = 1
const HEADER = 10
const DIGEST = 16

// zlib is loaded when a state too large to store is first written or read: small runs and hosts that never save a
// state do without it, and importing it with the library would cost every host's start-up.
const zlib = () => process.getBuiltinModule("node:zlib")

/** The largest JSON text a snapshot may inflate to. */
export const MAX_SNAPSHOT_JSON_BYTES = 256 * 1024 * 1024

/** States up to this size (a small run's) are stored: their JSON is their payload, in one deflate stored block. */
const STORE_UP_TO = 4 * 1024
/**
 * States up to this size (most suspended runs) are deflated at the fastest level: it halves the time of the
 * default one, which then dominates a suspend, and gains little on so little text. Any level inflates alike.
 */
const FAST_DEFLATE_BELOW = 64 * 1024
const DEFAULT_LEVEL = -1

/** The digest of a header and then a payload, side by side in `data`: hashed in one call, no hasher to set up. */
const digestOf = (data: Uint8Array): Buffer => hash("sha256", data, "buffer").subarray(0, DIGEST)

/** The digest of a header and a payload apart: a small payload is copied beside the header, a large one streamed. */
const digestOfParts = (header: Buffer, payload: Buffer): Buffer => {
  if (payload.length > FAST_DEFLATE_BELOW) return createHash("sha256").update(header).update(payload).digest().subarray(0, DIGEST)
  const data = Buffer.allocUnsafe(header.length + payload.length)
  header.copy(data, 0)
  payload.copy(data, header.length)
  return digestOf(data)
}

/** The bytes of a payload that is exactly one final stored block; undefined for anything else (for zlib to judge). */
const unstoreRaw = (payload: Buffer): Buffer | undefined => {
  if (payload.length < 5 || payload[0] !== 1) return undefined
  const len = payload.readUInt16LE(1)
  if ((~len & 0xffff) !== payload.readUInt16LE(3) || payload.length !== 5 + len) return undefined
  return payload.subarray(5)
}

/**
 * The compact binary form of a snapshot.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toBytes = (snapshot: Snapshot): Uint8Array => {
  const text = JSON.stringify(snapshot)
  const length = Buffer.byteLength(text, "utf8")
  if (length > MAX_SNAPSHOT_JSON_BYTES) throw new SnapshotError(`the snapshot is larger than ${MAX_SNAPSHOT_JSON_BYTES} bytes`)
  const start = HEADER + DIGEST
  let bytes: Uint8Array
  let out: Buffer
  if (length <= STORE_UP_TO) {
    // One final raw deflate stored block (RFC 1951 3.2.4): BFINAL 1, BTYPE 00, LEN, NLEN, then the text itself.
    out = viewOf((bytes = new Uint8Array(start + 5 + length)))
    out[start] = 1
    out.writeUInt16LE(length, start + 1)
    out.writeUInt16LE(~length & 0xffff, start + 3)
    out.write(text, start + 5, "utf8")
  } else {
    const payload = zlib().deflateRawSync(Buffer.from(text, "utf8"), { level: length <= FAST_DEFLATE_BELOW ? 1 : DEFAULT_LEVEL })
    out = viewOf((bytes = new Uint8Array(start + payload.length)))
    out.set(payload, start)
  }
  // The header is written twice: just before the payload first, so that the digest reads both in one piece.
  writeHeader(out, DIGEST, length)
  const digest = digestOf(out.subarray(DIGEST))
  writeHeader(out, 0, length)
  out.set(digest, HEADER)
  return bytes
}

const viewOf = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

const writeHeader = (out: Buffer, at: number, length: number): void => {
  MAGIC.copy(out, at)
  out.writeUInt16BE(LAYOUT, at + 4)
  out.writeUInt32BE(length, at + 6)
}

/**
 * A snapshot from its binary form. Corrupted, truncated or foreign bytes fail with `SnapshotError`; the JSON's
 * content is checked when the resumed program runs.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromBytes = (bytes: Uint8Array): Snapshot => parseSnapshot(textOfBytes(bytes))

/** The JSON text of a snapshot's binary form, checked as `fromBytes` says, not parsed. */
export const textOfBytes = (bytes: Uint8Array): string => {
  if (!(bytes instanceof Uint8Array)) throw new SnapshotError("a snapshot's bytes must be a Uint8Array")
  if (bytes.length < HEADER + DIGEST) throw new SnapshotError("not a codemode snapshot: too short")
  const buf = viewOf(bytes)
  if (!buf.subarray(0, 4).equals(MAGIC)) throw new SnapshotError("not a codemode snapshot: bad magic")
  const layout = buf.readUInt16BE(4)
  if (layout !== LAYOUT) throw new SnapshotError(`snapshot layout ${layout} is not supported (this build reads ${LAYOUT})`)
  const length = buf.readUInt32BE(6)
  const payload = buf.subarray(HEADER + DIGEST)
  if (!digestOfParts(buf.subarray(0, HEADER), payload).equals(buf.subarray(HEADER, HEADER + DIGEST))) {
    throw new SnapshotError("the snapshot is corrupted: its checksum does not match")
  }
  if (length > MAX_SNAPSHOT_JSON_BYTES) throw new SnapshotError("the snapshot declares an oversized payload")
  let json = unstoreRaw(payload)
  if (json === undefined) {
    try {
      json = zlib().inflateRawSync(payload, { maxOutputLength: Math.max(1, length) })
    } catch (e) {
      throw new SnapshotError(`the snapshot's payload does not inflate: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  if (json.length !== length) throw new SnapshotError("the snapshot's payload has the wrong length")
  return json.toString("utf8")
}

/** A snapshot from its JSON text, its envelope checked. */
export const parseSnapshot = (text: string): Snapshot => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new SnapshotError("the snapshot's payload is not JSON")
  }
  return checkEnvelope(parsed)
}

/** The envelope of a snapshot: an object with the format version and build id first, a run record and a heap. */
export const checkEnvelope = (s: unknown): Snapshot => {
  if (typeof s !== "object" || s === null || Array.isArray(s)) throw new SnapshotError("a snapshot must be an object")
  const o = s as Record<string, unknown>
  if (o.format !== FORMAT_VERSION) throw new SnapshotError(`snapshot format ${JSON.stringify(o.format)} is not supported (this build reads ${FORMAT_VERSION})`)
  if (typeof o.build !== "string") throw new SnapshotError("the snapshot has no build id")
  if (typeof o.heap !== "object" || o.heap === null || !("run" in o)) throw new SnapshotError("the snapshot has no run or heap")
  if (o.signature !== undefined && typeof o.signature !== "string") throw new SnapshotError("the snapshot's signature is not a string")
  return o as unknown as Snapshot
}
