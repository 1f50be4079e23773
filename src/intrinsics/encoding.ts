/**
 * Text encoding and base64 globals, as Node provides them: TextEncoder and TextDecoder (the WHATWG Encoding
 * Standard, https://encoding.spec.whatwg.org/), `atob`/`btoa` (https://html.spec.whatwg.org/#atob, with Node's
 * exact checks and messages) and %DOMException% (https://webidl.spec.whatwg.org/#idl-DOMException), the error
 * type atob, btoa and structuredClone throw. DOMException instances are errors (`instanceof Error`, a `stack`),
 * with `name`, `message` and `code` as prototype getters over internal slots, as in Node.
 *
 * TextDecoder decodes UTF-8, UTF-16LE/BE and windows-1252 (the label "latin1" and "ascii" name it) with the
 * standard's decoders written out here as plain-data state machines, so a streaming decoder (`{ stream: true }`)
 * keeps its partial sequence as data in the object. Any other label the host's ICU knows (iso-8859-2,
 * shift_jis...) decodes through the host's decoder, one call at a time.
 * NON-SPEC: for those other encodings `stream` is accepted but a sequence split across calls is not joined.
 */
import { defineAccessors, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { ThrowCompletion } from "../runtime/completion.ts"
import { ToBoolean, ToString } from "../runtime/conversions.ts"
import { ErrorObject, InstallErrorStack } from "../runtime/errors.ts"
import { JSObject } from "../runtime/object.ts"
import { CreateDataProperty, GetPrototypeFromConstructor } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"
import { Caps, checkStringLength } from "../runtime/caps.ts"
import {
  ArrayBufferObject,
  CreateByteDataBlock,
  CreateUint8ArrayFromBytes,
  DataViewObject,
  GetViewByteLength,
  IsTypedArrayOutOfBounds,
  IsViewOutOfBounds,
  TypedArrayObject,
  typedArrayBytes,
  writeElement,
} from "./bytes-objects.ts"
import { describeReceived, invalidThis, markEnumerable, missingArgs, requireNew, requireUint8Array, throwCodedError } from "./web.ts"

type Args = ReadonlyArray<Value>

// ---------------------------------------------------------------------------------------------------------------
// DOMException

/** https://webidl.spec.whatwg.org/#dfn-error-names-table — the legacy `code` of each name. */
const LEGACY_CODES: ReadonlyArray<readonly [constant: string, name: string]> = [
  ["INDEX_SIZE_ERR", "IndexSizeError"],
  ["DOMSTRING_SIZE_ERR", "DOMStringSizeError"],
  ["HIERARCHY_REQUEST_ERR", "HierarchyRequestError"],
  ["WRONG_DOCUMENT_ERR", "WrongDocumentError"],
  ["INVALID_CHARACTER_ERR", "InvalidCharacterError"],
  ["NO_DATA_ALLOWED_ERR", "NoDataAllowedError"],
  ["NO_MODIFICATION_ALLOWED_ERR", "NoModificationAllowedError"],
  ["NOT_FOUND_ERR", "NotFoundError"],
  ["NOT_SUPPORTED_ERR", "NotSupportedError"],
  ["INUSE_ATTRIBUTE_ERR", "InUseAttributeError"],
  ["INVALID_STATE_ERR", "InvalidStateError"],
  ["SYNTAX_ERR", "SyntaxError"],
  ["INVALID_MODIFICATION_ERR", "InvalidModificationError"],
  ["NAMESPACE_ERR", "NamespaceError"],
  ["INVALID_ACCESS_ERR", "InvalidAccessError"],
  ["VALIDATION_ERR", "ValidationError"],
  ["TYPE_MISMATCH_ERR", "TypeMismatchError"],
  ["SECURITY_ERR", "SecurityError"],
  ["NETWORK_ERR", "NetworkError"],
  ["ABORT_ERR", "AbortError"],
  ["URL_MISMATCH_ERR", "URLMismatchError"],
  ["QUOTA_EXCEEDED_ERR", "QuotaExceededError"],
  ["TIMEOUT_ERR", "TimeoutError"],
  ["INVALID_NODE_TYPE_ERR", "InvalidNodeTypeError"],
  ["DATA_CLONE_ERR", "DataCloneError"],
]
const CODE_OF_NAME: ReadonlyMap<string, number> = new Map(LEGACY_CODES.map(([, name], i) => [name, i + 1]))

/** A DOMException: an error whose name and message are internal slots read through prototype getters. */
export class DOMExceptionObject extends ErrorObject {
  readonly exceptionName: string
  readonly exceptionMessage: string
  constructor(proto: JSObject | null, realm: Realm, name: string, message: string) {
    super(proto, realm.host.currentLocation())
    this.exceptionName = name
    this.exceptionMessage = message
  }
}

/** A new DOMException of this realm (as `new DOMException(message, name)`). */
export const CreateDOMException = (realm: Realm, message: string, name: string): DOMExceptionObject => {
  const e = new DOMExceptionObject(realm.intrinsic("%DOMException.prototype%"), realm, name, message)
  InstallErrorStack(realm, e, message === "" ? name : `${name}: ${message}`)
  return e
}

export const throwDOMException = (realm: Realm, message: string, name: string): never => {
  throw new ThrowCompletion(CreateDOMException(realm, message, name))
}

/** https://webidl.spec.whatwg.org/#dom-domexception-domexception (Node's order of conversions). */
function* DOMException_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  const target = requireNew(newTarget, "DOMException")
  const [message, options] = args
  let nameValue: Value = "Error"
  let hasOptionsObject = false
  if (options instanceof JSObject && !options.isCallable()) {
    hasOptionsObject = true
    nameValue = yield* options.Get("name", options)
  } else if (options !== undefined) nameValue = options
  const messageText = message === undefined ? "" : yield* ToString(realm, message)
  const name = yield* ToString(realm, nameValue)
  const proto = yield* GetPrototypeFromConstructor(realm, target, "%DOMException.prototype%")
  const e = new DOMExceptionObject(proto, realm, name, messageText)
  InstallErrorStack(realm, e, messageText === "" ? name : `${name}: ${messageText}`)
  if (hasOptionsObject && (options as JSObject).HasProperty("cause")) {
    const cause = yield* (options as JSObject).Get("cause", options)
    e.properties.set("cause", Property.data(cause, true, false, true))
  }
  return e
}

const thisDOMException = (realm: Realm, v: Value): DOMExceptionObject =>
  v instanceof DOMExceptionObject ? v : throwCodedError(realm, "TypeError", "ERR_INVALID_THIS", 'Value of "this" must be of DOMException')

const DOMExceptionProto_name = (realm: Realm, thisArg: Value): Value => thisDOMException(realm, thisArg).exceptionName
const DOMExceptionProto_message = (realm: Realm, thisArg: Value): Value => thisDOMException(realm, thisArg).exceptionMessage
const DOMExceptionProto_code = (realm: Realm, thisArg: Value): Value =>
  CODE_OF_NAME.get(thisDOMException(realm, thisArg).exceptionName) ?? 0

// ---------------------------------------------------------------------------------------------------------------
// Decoders (https://encoding.spec.whatwg.org/#encodings), as data

type EncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252"

const LABELS: ReadonlyMap<string, EncodingName> = new Map([
  ...["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"].map((l) => [l, "utf-8"] as const),
  ...["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"].map((l) => [l, "utf-16le"] as const),
  ...["unicodefffe", "utf-16be"].map((l) => [l, "utf-16be"] as const),
  ...[
    "ansi_x3.4-1968",
    "ascii",
    "cp1252",
    "cp819",
    "csisolatin1",
    "ibm819",
    "iso-8859-1",
    "iso-ir-100",
    "iso8859-1",
    "iso88591",
    "iso_8859-1",
    "iso_8859-1:1987",
    "l1",
    "latin1",
    "us-ascii",
    "windows-1252",
    "x-cp1252",
  ].map((l) => [l, "windows-1252"] as const),
])

/** windows-1252's code points for bytes 0x80-0x9F (https://encoding.spec.whatwg.org/index-windows-1252.txt). */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]

const REPLACEMENT = 0xfffd

/**
 * The state of a decoder between calls (plain numbers): UTF-8 [codePoint, bytesNeeded, bytesSeen, lower, upper];
 * UTF-16 [leadByte, leadSurrogate] with -1 for null.
 */
type DecoderState = number[]
const initialState = (encoding: string): DecoderState =>
  encoding === "utf-8" ? [0, 0, 0, 0x80, 0xbf] : encoding === "utf-16le" || encoding === "utf-16be" ? [-1, -1] : []

/** Thrown by a decoder in fatal mode; the caller turns it into Node's TypeError. */
class DecodeError {}

/**
 * Decoded UTF-16 code units, turned into string pieces as they come so that a large input never becomes a large
 * array of numbers; the string cap is checked at every piece.
 */
class UnitSink {
  private units: number[] = []
  private readonly pieces: string[] = []
  private length = 0
  push(unit: number, second?: number): void {
    this.units.push(unit)
    if (second !== undefined) this.units.push(second)
    if (this.units.length >= 8192) this.flush()
  }
  first(): number | undefined {
    return this.pieces.length > 0 ? this.pieces[0]!.charCodeAt(0) : this.units[0]
  }
  shiftFirst(): void {
    if (this.pieces.length > 0) this.pieces[0] = this.pieces[0]!.slice(1)
    else this.units.shift()
    this.length--
  }
  get size(): number {
    return this.length + this.units.length
  }
  private flush(): void {
    if (this.units.length === 0) return
    this.length += this.units.length
    checkStringLength(this.length)
    this.pieces.push(String.fromCharCode(...this.units))
    this.units = []
  }
  text(): string {
    this.flush()
    return this.pieces.join("")
  }
}

/**
 * Runs a decoder over `bytes`, then over end-of-queue when `flush`. Appends code points to `out` (UTF-16 units).
 * https://encoding.spec.whatwg.org/#utf-8-decoder and https://encoding.spec.whatwg.org/#shared-utf-16-decoder
 */
const runDecoder = (encoding: EncodingName, state: DecoderState, bytes: Uint8Array, flush: boolean, fatal: boolean, out: UnitSink): void => {
  const error = (): void => {
    if (fatal) throw new DecodeError()
    out.push(REPLACEMENT)
  }
  const emit = (cp: number): void => {
    if (cp > 0xffff) {
      cp -= 0x10000
      out.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff))
    } else out.push(cp)
  }
  if (encoding === "windows-1252") {
    for (const b of bytes) out.push(b < 0x80 || b > 0x9f ? b : WINDOWS_1252_HIGH[b - 0x80]!)
    return
  }
  if (encoding === "utf-8") {
    let [codePoint, bytesNeeded, bytesSeen, lower, upper] = state as [number, number, number, number, number]
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!
      if (bytesNeeded === 0) {
        if (byte <= 0x7f) out.push(byte)
        else if (byte >= 0xc2 && byte <= 0xdf) {
          bytesNeeded = 1
          codePoint = byte & 0x1f
        } else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) lower = 0xa0
          if (byte === 0xed) upper = 0x9f
          bytesNeeded = 2
          codePoint = byte & 0xf
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) lower = 0x90
          if (byte === 0xf4) upper = 0x8f
          bytesNeeded = 3
          codePoint = byte & 0x7
        } else error()
        continue
      }
      if (byte < lower || byte > upper) {
        codePoint = bytesNeeded = bytesSeen = 0
        lower = 0x80
        upper = 0xbf
        i-- // restore the byte to the queue
        error()
        continue
      }
      lower = 0x80
      upper = 0xbf
      codePoint = (codePoint << 6) | (byte & 0x3f)
      bytesSeen++
      if (bytesSeen !== bytesNeeded) continue
      emit(codePoint)
      codePoint = bytesNeeded = bytesSeen = 0
    }
    if (flush && bytesNeeded !== 0) {
      codePoint = bytesNeeded = bytesSeen = 0
      lower = 0x80
      upper = 0xbf
      state.splice(0, 5, codePoint, bytesNeeded, bytesSeen, lower, upper)
      error()
      return
    }
    state.splice(0, 5, codePoint, bytesNeeded, bytesSeen, lower, upper)
    return
  }
  // UTF-16LE / UTF-16BE
  const be = encoding === "utf-16be"
  let [leadByte, leadSurrogate] = state as [number, number]
  const queue: number[] = []
  let i = 0
  const next = (): number | undefined => (queue.length > 0 ? queue.shift() : i < bytes.length ? bytes[i++] : undefined)
  for (let byte = next(); byte !== undefined; byte = next()) {
    if (leadByte === -1) {
      leadByte = byte
      continue
    }
    const codeUnit = be ? (leadByte << 8) + byte : leadByte + (byte << 8)
    leadByte = -1
    if (leadSurrogate !== -1) {
      const ls = leadSurrogate
      leadSurrogate = -1
      if (codeUnit >= 0xdc00 && codeUnit <= 0xdfff) {
        out.push(ls, codeUnit)
        continue
      }
      const byte1 = codeUnit >> 8
      const byte2 = codeUnit & 0xff
      queue.unshift(...(be ? [byte1, byte2] : [byte2, byte1]))
      state[0] = leadByte
      state[1] = leadSurrogate
      error()
      continue
    }
    if (codeUnit >= 0xd800 && codeUnit <= 0xdbff) {
      leadSurrogate = codeUnit
      continue
    }
    if (codeUnit >= 0xdc00 && codeUnit <= 0xdfff) {
      error()
      continue
    }
    out.push(codeUnit)
  }
  if (flush && (leadByte !== -1 || leadSurrogate !== -1)) {
    state[0] = -1
    state[1] = -1
    error()
    return
  }
  state[0] = leadByte
  state[1] = leadSurrogate
}

// ---------------------------------------------------------------------------------------------------------------
// TextEncoder

export class TextEncoderObject extends JSObject {
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "TextEncoder"
  }
}

function* TextEncoder_(realm: Realm, _this: Value, _args: Args, newTarget: JSObject | undefined): Task<Value> {
  const target = requireNew(newTarget, "TextEncoder")
  return new TextEncoderObject(yield* GetPrototypeFromConstructor(realm, target, "%TextEncoder.prototype%"))
}

const thisEncoder = (realm: Realm, v: Value): TextEncoderObject => (v instanceof TextEncoderObject ? v : invalidThis(realm, "TextEncoder"))

const TextEncoderProto_encoding = (realm: Realm, thisArg: Value): Value => {
  thisEncoder(realm, thisArg)
  return "utf-8"
}

const hostEncoder = new TextEncoder()

/** The UTF-8 length of a string (lone surrogates count as U+FFFD, three bytes). */
const utf8Length = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

// https://encoding.spec.whatwg.org/#dom-textencoder-encode
function* TextEncoderProto_encode(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  thisEncoder(realm, thisArg)
  const input = args[0] === undefined ? "" : typeof args[0] === "string" ? args[0] : yield* ToString(realm, args[0])
  // Check the cap before the host allocates: the UTF-8 length may be up to three bytes per code unit.
  if (input.length * 3 > Caps.maxArrayBufferBytes && utf8Length(input) > Caps.maxArrayBufferBytes) CreateByteDataBlock(Infinity)
  return CreateUint8ArrayFromBytes(realm, hostEncoder.encode(input))
}

// https://encoding.spec.whatwg.org/#dom-textencoder-encodeinto
const TextEncoderProto_encodeInto = (realm: Realm, thisArg: Value, args: Args): Value => {
  thisEncoder(realm, thisArg)
  const [src, dest] = args
  if (typeof src !== "string") {
    return throwCodedError(realm, "TypeError", "ERR_INVALID_ARG_TYPE", `The "src" argument must be of type string. ${describeReceived(src)}`)
  }
  const target = requireUint8Array(realm, dest, "dest")
  const capacity = IsTypedArrayOutOfBounds(target) ? 0 : typedArrayBytes(target).length
  let read = 0
  let written = 0
  for (let i = 0; i < src.length; ) {
    let cp = src.codePointAt(i)!
    const units = cp > 0xffff ? 2 : 1
    if (cp >= 0xd800 && cp <= 0xdfff) cp = REPLACEMENT
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
    if (written + size > capacity) break
    const bytes = size === 1 ? [cp] : hostEncoder.encode(String.fromCodePoint(cp))
    for (const b of bytes) writeElement(target, written++, b)
    read += units
    i += units
  }
  const result = new JSObject(realm.ObjectPrototype)
  CreateDataProperty(result, "read", read)
  CreateDataProperty(result, "written", written)
  return result
}

// ---------------------------------------------------------------------------------------------------------------
// TextDecoder

export class TextDecoderObject extends JSObject {
  /** The encoding's name (one of ours, or a host ICU name such as "iso-8859-2"). */
  readonly encoding: string
  readonly fatal: boolean
  readonly ignoreBOM: boolean
  /** [[DoNotFlush]]: the previous call was a streaming one, so the decoder state carries over. */
  doNotFlush = false
  bomSeen = false
  state: DecoderState
  constructor(proto: JSObject | null, encoding: string, fatal: boolean, ignoreBOM: boolean) {
    super(proto)
    this.kind = "TextDecoder"
    this.encoding = encoding
    this.fatal = fatal
    this.ignoreBOM = ignoreBOM
    this.state = initialState(encoding)
  }
}

/** Node's ERR_INVALID_ARG_TYPE for an options argument that is not an object (null and undefined are allowed). */
const checkOptions = (realm: Realm, options: Value): JSObject | undefined => {
  if (options === undefined || options === null) return undefined
  if (options instanceof JSObject && !options.isCallable()) return options
  return throwCodedError(realm, "TypeError", "ERR_INVALID_ARG_TYPE", `The "options" argument must be of type object. ${describeReceived(options)}`)
}

/** An encoding name for `label`: ours, or the host's for encodings we leave to its ICU; undefined when unknown. */
const encodingOfLabel = (label: string): string | undefined => {
  const key = label.trim().toLowerCase()
  const ours = LABELS.get(key)
  if (ours !== undefined) return ours
  try {
    return new TextDecoder(key).encoding
  } catch {
    return undefined
  }
}

// https://encoding.spec.whatwg.org/#dom-textdecoder
function* TextDecoder_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  const target = requireNew(newTarget, "TextDecoder")
  const label = args[0] === undefined ? "utf-8" : yield* ToString(realm, args[0])
  const options = checkOptions(realm, args[1])
  const encoding = encodingOfLabel(label)
  if (encoding === undefined) {
    return throwCodedError(realm, "RangeError", "ERR_ENCODING_NOT_SUPPORTED", `The "${label}" encoding is not supported`)
  }
  const fatal = options === undefined ? false : ToBoolean(yield* options.Get("fatal", options))
  const ignoreBOM = options === undefined ? false : ToBoolean(yield* options.Get("ignoreBOM", options))
  const proto = yield* GetPrototypeFromConstructor(realm, target, "%TextDecoder.prototype%")
  return new TextDecoderObject(proto, encoding, fatal, ignoreBOM)
}

const thisDecoder = (realm: Realm, v: Value): TextDecoderObject => (v instanceof TextDecoderObject ? v : invalidThis(realm, "TextDecoder"))

/** The bytes of a BufferSource argument (a live view), or Node's ERR_INVALID_ARG_TYPE. */
const bufferSourceBytes = (realm: Realm, input: Value): Uint8Array => {
  if (input instanceof ArrayBufferObject) return input.data ?? new Uint8Array(0)
  if (input instanceof TypedArrayObject) return IsTypedArrayOutOfBounds(input) ? new Uint8Array(0) : typedArrayBytes(input)
  if (input instanceof DataViewObject) {
    if (IsViewOutOfBounds(input)) return new Uint8Array(0)
    return input.buffer.data!.subarray(input.byteOffset, input.byteOffset + GetViewByteLength(input))
  }
  return throwCodedError(
    realm,
    "TypeError",
    "ERR_INVALID_ARG_TYPE",
    'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.',
  )
}

// https://encoding.spec.whatwg.org/#dom-textdecoder-decode
function* TextDecoderProto_decode(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const decoder = thisDecoder(realm, thisArg)
  const bytes = args[0] === undefined ? new Uint8Array(0) : bufferSourceBytes(realm, args[0])
  const options = checkOptions(realm, args[1])
  const stream = options === undefined ? false : ToBoolean(yield* options.Get("stream", options))
  // 1. If this's do not flush is false, set this's decoder to a new instance and BOM seen to false.
  if (!decoder.doNotFlush) {
    decoder.state = initialState(decoder.encoding)
    decoder.bomSeen = false
  }
  // 2. Set this's do not flush to options["stream"].
  decoder.doNotFlush = stream
  const units = new UnitSink()
  const enc = decoder.encoding
  if (enc === "utf-8" || enc === "utf-16le" || enc === "utf-16be" || enc === "windows-1252") {
    try {
      runDecoder(enc, decoder.state, bytes, !stream, decoder.fatal, units)
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e
      decoder.doNotFlush = false
      return throwCodedError(realm, "TypeError", "ERR_ENCODING_INVALID_ENCODED_DATA", `The encoded data was not valid for encoding ${enc}`)
    }
  } else {
    // NON-SPEC (see the header): the host's decoder, one call at a time.
    let text: string
    try {
      text = new TextDecoder(enc, { fatal: decoder.fatal, ignoreBOM: true }).decode(bytes)
    } catch {
      return throwCodedError(realm, "TypeError", "ERR_ENCODING_INVALID_ENCODED_DATA", `The encoded data was not valid for encoding ${enc}`)
    }
    checkStringLength(text.length)
    return text
  }
  // https://encoding.spec.whatwg.org/#concept-td-serialize — strip one leading BOM at the start of the stream.
  if ((enc === "utf-8" || enc === "utf-16le" || enc === "utf-16be") && !decoder.ignoreBOM && !decoder.bomSeen && units.size > 0) {
    decoder.bomSeen = true
    if (units.first() === 0xfeff) units.shiftFirst()
  }
  return units.text()
}

const TextDecoderProto_encoding = (realm: Realm, thisArg: Value): Value => thisDecoder(realm, thisArg).encoding
const TextDecoderProto_fatal = (realm: Realm, thisArg: Value): Value => thisDecoder(realm, thisArg).fatal
const TextDecoderProto_ignoreBOM = (realm: Realm, thisArg: Value): Value => thisDecoder(realm, thisArg).ignoreBOM

// ---------------------------------------------------------------------------------------------------------------
// atob / btoa (Node's lib/buffer.js checks, which implement https://infra.spec.whatwg.org/#forgiving-base64-decode)

const BASE64_CHAR = /^[A-Za-z0-9+/]$/
const isAsciiWhitespace = (c: number): boolean => c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20

// https://html.spec.whatwg.org/multipage/webappapis.html#dom-atob
function* Global_atob(realm: Realm, _this: Value, args: Args): Task<Value> {
  if (args.length === 0) return missingArgs(realm, "input")
  const input = typeof args[0] === "string" ? args[0] : yield* ToString(realm, args[0])
  const invalid = (): never => throwDOMException(realm, "Invalid character", "InvalidCharacterError")
  let nonWhitespace = 0
  let equals = 0
  for (let n = 0; n < input.length; n++) {
    const c = input.charCodeAt(n)
    if (isAsciiWhitespace(c)) continue
    if (c === 0x3d) {
      nonWhitespace++
      equals++
      if (equals > 2) invalid()
    } else if (BASE64_CHAR.test(input[n]!)) {
      nonWhitespace++
      // `=` is only allowed at the end.
      if (equals > 0) invalid()
    } else invalid()
  }
  let remainder = nonWhitespace % 4
  if (remainder === 0) remainder = (nonWhitespace - equals) % 4
  else if (equals > 0) invalid()
  if (remainder === 1) return throwDOMException(realm, "The string to be decoded is not correctly encoded.", "InvalidCharacterError")
  return Buffer.from(input, "base64").toString("latin1")
}

// https://html.spec.whatwg.org/multipage/webappapis.html#dom-btoa
function* Global_btoa(realm: Realm, _this: Value, args: Args): Task<Value> {
  if (args.length === 0) return missingArgs(realm, "input")
  const input = typeof args[0] === "string" ? args[0] : yield* ToString(realm, args[0])
  for (let n = 0; n < input.length; n++) {
    if (input.charCodeAt(n) > 0xff) return throwDOMException(realm, "Invalid character", "InvalidCharacterError")
  }
  checkStringLength(Math.ceil(input.length / 3) * 4)
  return Buffer.from(input, "latin1").toString("base64")
}

// ---------------------------------------------------------------------------------------------------------------

export const install = (realm: Realm): void => {
  // DOMException: an Error subclass in its prototype chain, with the legacy code constants on both objects.
  const DOMExceptionPrototype = new JSObject(realm.intrinsic("%Error.prototype%"))
  const DOMExceptionCtor = defineConstructor(realm, "DOMException", DOMException_, 0, DOMExceptionPrototype)
  defineAccessors(realm, DOMExceptionPrototype, "%DOMException.prototype%", [
    ["name", DOMExceptionProto_name, undefined],
    ["message", DOMExceptionProto_message, undefined],
    ["code", DOMExceptionProto_code, undefined],
  ])
  markEnumerable(DOMExceptionPrototype, ["name", "message", "code"])
  const constants = LEGACY_CODES.map(([constant], i) => [constant, i + 1] as const)
  const constantAttributes = { writable: false, enumerable: true, configurable: false }
  defineValues(DOMExceptionCtor, constants, constantAttributes)
  defineValues(DOMExceptionPrototype, constants, constantAttributes)
  defineValues(DOMExceptionPrototype, [[WellKnownSymbols.toStringTag, "DOMException"]], { writable: false, enumerable: false, configurable: true })

  // TextEncoder
  const TextEncoderPrototype = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "TextEncoder", TextEncoder_, 0, TextEncoderPrototype)
  defineAccessors(realm, TextEncoderPrototype, "%TextEncoder.prototype%", [["encoding", TextEncoderProto_encoding, undefined]])
  defineMethods(realm, TextEncoderPrototype, "%TextEncoder.prototype%", [
    ["encode", TextEncoderProto_encode, 0],
    ["encodeInto", TextEncoderProto_encodeInto, 2],
  ])
  markEnumerable(TextEncoderPrototype, ["encoding", "encode", "encodeInto"])
  defineValues(TextEncoderPrototype, [[WellKnownSymbols.toStringTag, "TextEncoder"]], { writable: false, enumerable: false, configurable: true })

  // TextDecoder
  const TextDecoderPrototype = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "TextDecoder", TextDecoder_, 0, TextDecoderPrototype)
  defineMethods(realm, TextDecoderPrototype, "%TextDecoder.prototype%", [["decode", TextDecoderProto_decode, 0]])
  defineAccessors(realm, TextDecoderPrototype, "%TextDecoder.prototype%", [
    ["encoding", TextDecoderProto_encoding, undefined],
    ["fatal", TextDecoderProto_fatal, undefined],
    ["ignoreBOM", TextDecoderProto_ignoreBOM, undefined],
  ])
  markEnumerable(TextDecoderPrototype, ["decode", "encoding", "fatal", "ignoreBOM"])
  defineValues(TextDecoderPrototype, [[WellKnownSymbols.toStringTag, "TextDecoder"]], { writable: false, enumerable: false, configurable: true })

  // atob / btoa (enumerable globals in Node)
  defineMethods(realm, realm.globalObject, "%GlobalObject%", [
    ["atob", Global_atob, 1],
    ["btoa", Global_btoa, 1],
  ])
  markEnumerable(realm.globalObject, ["atob", "btoa"])
}
