/**
 * Uint8Array to and from base64 and hex (ES2026, https://tc39.es/ecma262/#sec-uint8array-objects — the
 * proposal-arraybuffer-base64 text): Uint8Array.fromBase64 / fromHex, and Uint8Array.prototype.toBase64 / toHex /
 * setFromBase64 / setFromHex. FromBase64 and FromHex are written out as the spec's decoders (their `read`/`written`
 * results and the bytes written before an error are observable); encoding uses the host's exact base64.
 *
 * NON-SPEC: none, but note that Node 24 (the differential oracle) does not ship these yet, so they are covered by
 * unit tests rather than by the differential corpus.
 */
import { defineMethods } from "../runtime/builtin.ts"
import { SandboxError, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import { CreateDataProperty } from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"
import { checkStringLength } from "../runtime/caps.ts"
import { CreateUint8ArrayFromBytes, IsTypedArrayOutOfBounds, TypedArrayObject, typedArrayBytes } from "./bytes-objects.ts"

type Args = ReadonlyArray<Value>

// https://tc39.es/ecma262/#sec-validateuint8array
const ValidateUint8Array = (ta: Value): TypedArrayObject => {
  if (!(ta instanceof TypedArrayObject) || ta.typedArrayName !== "Uint8Array") return throwTypeError("Argument is not a Uint8Array")
  return ta
}

// https://tc39.es/ecma262/#sec-getuint8arraybytes — a live view of the bytes.
const GetUint8ArrayBytes = (ta: TypedArrayObject): Uint8Array => {
  if (IsTypedArrayOutOfBounds(ta)) return throwTypeError("Cannot perform Uint8Array method on a detached ArrayBuffer")
  return typedArrayBytes(ta)
}

// https://tc39.es/ecma262/#sec-getoptionsobject
const GetOptionsObject = (options: Value): JSObject | undefined => {
  if (options === undefined) return undefined
  if (options instanceof JSObject) return options
  return throwTypeError("Options must be an object")
}

function* getOption(opts: JSObject | undefined, name: string): Task<Value> {
  return opts === undefined ? undefined : yield* opts.Get(name, opts)
}

function* GetAlphabet(opts: JSObject | undefined): Task<"base64" | "base64url"> {
  const alphabet = yield* getOption(opts, "alphabet")
  if (alphabet === undefined) return "base64"
  if (alphabet !== "base64" && alphabet !== "base64url") return throwTypeError("expected alphabet to be either \"base64\" or \"base64url\"")
  return alphabet
}

type LastChunkHandling = "loose" | "strict" | "stop-before-partial"
function* GetLastChunkHandling(opts: JSObject | undefined): Task<LastChunkHandling> {
  const v = yield* getOption(opts, "lastChunkHandling")
  if (v === undefined) return "loose"
  if (v !== "loose" && v !== "strict" && v !== "stop-before-partial") {
    return throwTypeError("expected lastChunkHandling to be either \"loose\", \"strict\", or \"stop-before-partial\"")
  }
  return v
}

const requireString = (v: Value): string => (typeof v === "string" ? v : throwTypeError("expected input to be a string"))

interface DecodeResult {
  readonly read: number
  readonly bytes: number[]
  readonly error: string | undefined
}

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const isAsciiWhitespace = (c: string): boolean => c === "\t" || c === "\n" || c === "\f" || c === "\r" || c === " "

const SkipAsciiWhitespace = (s: string, index: number): number => {
  while (index < s.length && isAsciiWhitespace(s[index]!)) index++
  return index
}

// https://tc39.es/ecma262/#sec-decodebase64chunk — undefined when throwOnExtraBits finds non-zero padding bits.
const DecodeBase64Chunk = (chunk: string, throwOnExtraBits: boolean): number[] | undefined => {
  const chunkLength = chunk.length
  const padded = chunkLength === 2 ? chunk + "AA" : chunkLength === 3 ? chunk + "A" : chunk
  let n = 0
  for (const c of padded) n = (n << 6) | STANDARD.indexOf(c)
  const bytes = [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
  if (chunkLength === 2) {
    if (throwOnExtraBits && bytes[1] !== 0) return undefined
    return [bytes[0]!]
  }
  if (chunkLength === 3) {
    if (throwOnExtraBits && bytes[2] !== 0) return undefined
    return [bytes[0]!, bytes[1]!]
  }
  return bytes
}

// https://tc39.es/ecma262/#sec-frombase64
const FromBase64 = (string: string, alphabet: "base64" | "base64url", lastChunkHandling: LastChunkHandling, maxLength = Number.MAX_SAFE_INTEGER): DecodeResult => {
  if (maxLength === 0) return { read: 0, bytes: [], error: undefined }
  let read = 0
  const bytes: number[] = []
  let chunk = ""
  const length = string.length
  let index = 0
  const fail = (message: string): DecodeResult => ({ read, bytes, error: message })
  for (;;) {
    index = SkipAsciiWhitespace(string, index)
    if (index === length) {
      if (chunk.length > 0) {
        if (lastChunkHandling === "stop-before-partial") return { read, bytes, error: undefined }
        if (lastChunkHandling === "loose") {
          if (chunk.length === 1) return fail("Unexpected end of input")
          bytes.push(...DecodeBase64Chunk(chunk, false)!)
        } else return fail("Missing padding")
      }
      return { read: length, bytes, error: undefined }
    }
    let char = string[index]!
    index++
    if (char === "=") {
      if (chunk.length < 2) return fail("Unexpected padding character")
      index = SkipAsciiWhitespace(string, index)
      if (chunk.length === 2) {
        if (index === length) {
          if (lastChunkHandling === "stop-before-partial") return { read, bytes, error: undefined }
          return fail("Malformed padding: only one =")
        }
        char = string[index]!
        if (char === "=") index = SkipAsciiWhitespace(string, index + 1)
      }
      if (index < length) return fail("Unexpected data after padding")
      const decoded = DecodeBase64Chunk(chunk, lastChunkHandling === "strict")
      if (decoded === undefined) return fail("Extra bits")
      bytes.push(...decoded)
      return { read: length, bytes, error: undefined }
    }
    if (alphabet === "base64url") {
      if (char === "+" || char === "/") return fail(`Unexpected character ${JSON.stringify(char)}`)
      if (char === "-") char = "+"
      else if (char === "_") char = "/"
    }
    if (!STANDARD.includes(char)) return fail(`Unexpected character ${JSON.stringify(char)}`)
    const remaining = maxLength - bytes.length
    if ((remaining === 1 && chunk.length === 2) || (remaining === 2 && chunk.length === 3)) return { read, bytes, error: undefined }
    chunk += char
    if (chunk.length === 4) {
      bytes.push(...DecodeBase64Chunk(chunk, false)!)
      chunk = ""
      read = index
      if (bytes.length === maxLength) return { read, bytes, error: undefined }
    }
  }
}

// https://tc39.es/ecma262/#sec-fromhex
const FromHex = (string: string, maxLength = Number.MAX_SAFE_INTEGER): DecodeResult => {
  const length = string.length
  const bytes: number[] = []
  let read = 0
  if (length % 2 !== 0) return { read, bytes, error: "Input string must contain hex characters in even length" }
  while (read < length && bytes.length < maxLength) {
    const hexits = string.slice(read, read + 2)
    if (!/^[0-9a-fA-F]{2}$/.test(hexits)) return { read, bytes, error: "Input string must contain hex characters" }
    read += 2
    bytes.push(parseInt(hexits, 16))
  }
  return { read, bytes, error: undefined }
}

const syntaxError = (message: string): never => {
  throw new SandboxError("SyntaxError", message)
}

// https://tc39.es/ecma262/#sec-uint8array.frombase64
function* Uint8Array_fromBase64(realm: Realm, _this: Value, args: Args): Task<Value> {
  const string = requireString(args[0])
  const opts = GetOptionsObject(args[1])
  const alphabet = yield* GetAlphabet(opts)
  const lastChunkHandling = yield* GetLastChunkHandling(opts)
  const result = FromBase64(string, alphabet, lastChunkHandling)
  if (result.error !== undefined) return syntaxError(result.error)
  return CreateUint8ArrayFromBytes(realm, Uint8Array.from(result.bytes))
}

// https://tc39.es/ecma262/#sec-uint8array.fromhex
const Uint8Array_fromHex = (realm: Realm, _this: Value, args: Args): Value => {
  const string = requireString(args[0])
  const result = FromHex(string)
  if (result.error !== undefined) return syntaxError(result.error)
  return CreateUint8ArrayFromBytes(realm, Uint8Array.from(result.bytes))
}

/** The `{ read, written }` result of the setFrom methods. */
const readWritten = (realm: Realm, read: number, written: number): JSObject => {
  const o = new JSObject(realm.ObjectPrototype)
  CreateDataProperty(o, "read", read)
  CreateDataProperty(o, "written", written)
  return o
}

// https://tc39.es/ecma262/#sec-uint8array.prototype.setfrombase64
function* Uint8ArrayProto_setFromBase64(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const into = ValidateUint8Array(thisArg)
  const string = requireString(args[0])
  const opts = GetOptionsObject(args[1])
  const alphabet = yield* GetAlphabet(opts)
  const lastChunkHandling = yield* GetLastChunkHandling(opts)
  const target = GetUint8ArrayBytes(into)
  const result = FromBase64(string, alphabet, lastChunkHandling, target.length)
  // The bytes decoded before an error are written, then the error is thrown.
  target.set(result.bytes)
  if (result.error !== undefined) return syntaxError(result.error)
  return readWritten(realm, result.read, result.bytes.length)
}

// https://tc39.es/ecma262/#sec-uint8array.prototype.setfromhex
const Uint8ArrayProto_setFromHex = (realm: Realm, thisArg: Value, args: Args): Value => {
  const into = ValidateUint8Array(thisArg)
  const string = requireString(args[0])
  const target = GetUint8ArrayBytes(into)
  const result = FromHex(string, target.length)
  target.set(result.bytes)
  if (result.error !== undefined) return syntaxError(result.error)
  return readWritten(realm, result.read, result.bytes.length)
}

// https://tc39.es/ecma262/#sec-uint8array.prototype.tobase64
function* Uint8ArrayProto_toBase64(_realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const O = ValidateUint8Array(thisArg)
  const opts = GetOptionsObject(args[0])
  const alphabet = yield* GetAlphabet(opts)
  const omitPadding = ToBoolean(yield* getOption(opts, "omitPadding"))
  const toEncode = GetUint8ArrayBytes(O)
  checkStringLength(Math.ceil(toEncode.length / 3) * 4)
  let out = Buffer.from(toEncode.buffer, toEncode.byteOffset, toEncode.byteLength).toString(alphabet === "base64url" ? "base64url" : "base64")
  if (alphabet === "base64url" && !omitPadding) out += "=".repeat((4 - (out.length % 4)) % 4)
  if (alphabet === "base64" && omitPadding) out = out.replace(/=+$/, "")
  return out
}

// https://tc39.es/ecma262/#sec-uint8array.prototype.tohex
const Uint8ArrayProto_toHex = (_realm: Realm, thisArg: Value): Value => {
  const O = ValidateUint8Array(thisArg)
  const toEncode = GetUint8ArrayBytes(O)
  checkStringLength(toEncode.length * 2)
  return Buffer.from(toEncode.buffer, toEncode.byteOffset, toEncode.byteLength).toString("hex")
}

export const install = (realm: Realm): void => {
  const U8 = realm.intrinsic("%Uint8Array%")
  const U8Proto = realm.intrinsic("%Uint8Array.prototype%")
  defineMethods(realm, U8, "%Uint8Array%", [
    ["fromBase64", Uint8Array_fromBase64, 1],
    ["fromHex", Uint8Array_fromHex, 1],
  ])
  defineMethods(realm, U8Proto, "%Uint8Array.prototype%", [
    ["setFromBase64", Uint8ArrayProto_setFromBase64, 1],
    ["setFromHex", Uint8ArrayProto_setFromHex, 1],
    ["toBase64", Uint8ArrayProto_toBase64, 0],
    ["toHex", Uint8ArrayProto_toHex, 0],
  ])
}
