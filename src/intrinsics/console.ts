/**
 * The `console` global, as Node prints it: every call appends ONE formatted string to `realm.logs` (the host
 * decides where it goes). Formatting is Node's util.format / util.inspect (inspect.ts); console.table draws Node's
 * box table. Group indentation and counters are state of the console object (`ConsoleObject`), plain data.
 *
 * The methods read properties as data and never call user code, except where Node would: `%s`, `%d`, `%i`, `%f`
 * conversions and `count(label)`'s label conversion (those are Tasks). NON-SPEC (Node): there is no clock in the
 * sandbox, so console.time/timeEnd/timeLog report `0ms`.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { defineMethods, defineValues } from "../runtime/builtin.ts"
import { Caps } from "../runtime/caps.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToString } from "../runtime/conversions.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import { JSObject } from "../runtime/object.ts"
import { Property } from "../runtime/property.ts"
import { defineForker } from "../runtime/realm-fork.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type PropertyKey, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { formatLog, getStringWidth, inspect, type InspectOptions } from "./inspect.ts"

/** The console object with its per-run state. */
export class ConsoleObject extends JSObject {
  groupIndentation = ""
  readonly counts = new Map<string, number>()
  readonly timers = new Set<string>()
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "console"
  }
}

defineForker(ConsoleObject, (t, proto) => {
  const c = new ConsoleObject(proto)
  c.groupIndentation = t.groupIndentation
  for (const [k, n] of t.counts) c.counts.set(k, n)
  for (const k of t.timers) c.timers.add(k)
  return c
})

const consoleOf = (realm: Realm): ConsoleObject => realm.intrinsic("%console%") as ConsoleObject

/**
 * Code units the realm's logs hold, counted from the logs themselves the first time (a resumed run's included).
 * Host state beside the realm, like the join stack of array.ts: `realm.logs` is what a snapshot saves.
 */
const logLengths = new WeakMap<Realm, number>()

const DROPPED = `…[console output past ${Caps.maxLogLength} characters was dropped]`

/**
 * Appends one entry, indented by the current group as Node does. The logs are held until the run ends, so what a
 * run may keep is capped (Caps.maxLogLength): past it, one marker line says so and every later line is dropped.
 */
const write = (realm: Realm, text: string): void => {
  let used = logLengths.get(realm) ?? (realm.logs.at(-1) === DROPPED ? Infinity : realm.logs.reduce((n, line) => n + line.length, 0))
  if (used > Caps.maxLogLength) return
  const indent = consoleOf(realm).groupIndentation
  if (indent.length !== 0) {
    if (text.includes("\n")) text = text.replace(/\n/g, `\n${indent}`)
    text = indent + text
  }
  PollInterrupt(realm, 1 + (text.length >>> 8))
  used += text.length
  if (used > Caps.maxLogLength) text = DROPPED
  realm.logs.push(text)
  logLengths.set(realm, used)
}

/** log, info, debug, warn, error, dirxml: util.format of the arguments. */
function* Console_log(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  write(realm, yield* formatLog(realm, args))
  return undefined
}

/** An option of console.dir's options object, read as data. */
const optionOf = (options: Value, key: string): Value => {
  if (!(options instanceof JSObject)) return undefined
  const p = options.lookup(key)
  return p === undefined || p.accessor ? undefined : p.value
}

// console.dir(object, options): util.inspect with the options' depth / showHidden.
const Console_dir = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const depth = optionOf(args[1], "depth")
  const showHidden = optionOf(args[1], "showHidden")
  const opts: InspectOptions = {
    ...(typeof depth === "number" ? { depth } : depth === null ? { depth: Infinity } : {}),
    ...(showHidden !== undefined ? { showHidden: ToBoolean(showHidden) } : {}),
  }
  write(realm, inspect(realm, args[0], opts))
  return undefined
}

function* Console_trace(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const message = yield* formatLog(realm, args)
  write(realm, `Trace${message === "" ? "" : `: ${message}`}\n    at <program>`)
  return undefined
}

// https://console.spec.whatwg.org/#assert
function* Console_assert(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  if (ToBoolean(args[0])) return undefined
  const rest = args.slice(1)
  if (rest.length > 0 && typeof rest[0] === "string") rest[0] = `Assertion failed: ${rest[0]}`
  else rest.unshift("Assertion failed")
  write(realm, yield* formatLog(realm, rest))
  return undefined
}

function* labelOf(realm: Realm, v: Value): Task<string> {
  return v === undefined ? "default" : yield* ToString(realm, v)
}

// https://console.spec.whatwg.org/#count
function* Console_count(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const label = yield* labelOf(realm, args[0])
  const counts = consoleOf(realm).counts
  const count = (counts.get(label) ?? 0) + 1
  counts.set(label, count)
  write(realm, `${label}: ${count}`)
  return undefined
}

function* Console_countReset(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  consoleOf(realm).counts.delete(yield* labelOf(realm, args[0]))
  return undefined
}

function* Console_group(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  if (args.length > 0) write(realm, yield* formatLog(realm, args))
  consoleOf(realm).groupIndentation += "  "
  return undefined
}

const Console_groupEnd = (realm: Realm): Value => {
  const c = consoleOf(realm)
  c.groupIndentation = c.groupIndentation.slice(0, Math.max(0, c.groupIndentation.length - 2))
  return undefined
}

function* Console_time(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  consoleOf(realm).timers.add(yield* labelOf(realm, args[0]))
  return undefined
}

function* Console_timeEnd(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const label = yield* labelOf(realm, args[0])
  if (consoleOf(realm).timers.delete(label)) write(realm, `${label}: 0ms`)
  return undefined
}

function* Console_timeLog(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const label = yield* labelOf(realm, args[0])
  if (!consoleOf(realm).timers.has(label)) return undefined
  const rest = args.slice(1)
  write(realm, rest.length === 0 ? `${label}: 0ms` : `${label}: 0ms ${yield* formatLog(realm, rest)}`)
  return undefined
}

// --- console.table --------------------------------------------------------------------------------------------

const tableChars = {
  middleMiddle: "─",
  rowMiddle: "┼",
  topRight: "┐",
  topLeft: "┌",
  leftMiddle: "├",
  topMiddle: "┬",
  bottomRight: "┘",
  bottomLeft: "└",
  bottomMiddle: "┴",
  rightMiddle: "┤",
  left: "│ ",
  right: " │",
  middle: " │ ",
}

const renderRow = (row: string[], columnWidths: number[]): string => {
  let out = tableChars.left
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]!
    const needed = columnWidths[i]! - getStringWidth(cell)
    out += cell + " ".repeat(Math.ceil(needed))
    if (i !== row.length - 1) out += tableChars.middle
  }
  return out + tableChars.right
}

/** Node's internal/cli_table: `columns[i][j]` is the cell of column i, row j (sparse: missing is ""). */
const renderTable = (head: string[], columns: Array<Array<string | undefined>>): string => {
  const rows: string[][] = []
  const columnWidths = head.map((h) => getStringWidth(h))
  const longestColumn = Math.max(...columns.map((a) => a.length))
  for (let i = 0; i < head.length; i++) {
    const column = columns[i]!
    for (let j = 0; j < longestColumn; j++) {
      rows[j] ??= []
      const value = (rows[j]![i] = j in column && column[j] !== undefined ? column[j]! : "")
      columnWidths[i] = Math.max(columnWidths[i] ?? 0, getStringWidth(value))
    }
  }
  const divider = columnWidths.map((w) => tableChars.middleMiddle.repeat(w + 2))
  let result =
    `${tableChars.topLeft}${divider.join(tableChars.topMiddle)}${tableChars.topRight}\n` +
    `${renderRow(head, columnWidths)}\n` +
    `${tableChars.leftMiddle}${divider.join(tableChars.rowMiddle)}${tableChars.rightMiddle}\n`
  for (const row of rows) result += `${renderRow(row, columnWidths)}\n`
  return result + `${tableChars.bottomLeft}${divider.join(tableChars.bottomMiddle)}${tableChars.bottomRight}`
}

/** Own enumerable string keys (Object.keys). */
const ownKeys = (o: JSObject): string[] =>
  o.OwnPropertyKeys().filter((k): k is string => typeof k === "string" && o.GetOwnProperty(k)?.enumerable === true)

const dataOf = (o: JSObject, key: PropertyKey): Value => {
  const p = o.GetOwnProperty(key)
  return p === undefined || p.accessor ? undefined : p.value
}

const Console_table = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  let [tabularData, properties] = args
  if (properties !== undefined && !(properties instanceof ArrayObject)) {
    return throwTypeError(`The "properties" argument must be an instance of Array.`)
  }
  if (!(tabularData instanceof JSObject) || tabularData.isCallable()) {
    write(realm, inspectLog(realm, tabularData))
    return undefined
  }
  const data = tabularData
  const _inspect = (v: Value): string => {
    const depth = v instanceof JSObject && !(v instanceof ArrayObject) && ownKeys(v).length > 2 ? -1 : 0
    return inspect(realm, v, { depth, maxArrayLength: 3, breakLength: Infinity })
  }
  const getIndexArray = (length: number): string[] => Array.from({ length }, (_, i) => _inspect(i))

  if (data.kind === "Map") {
    const keys: string[] = []
    const values: string[] = []
    for (const [k, v] of liveEntries(data)) {
      keys.push(_inspect(k))
      values.push(_inspect(v))
    }
    write(realm, renderTable(["(iteration index)", "Key", "Values"], [getIndexArray(keys.length), keys, values]))
    return undefined
  }
  if (data.kind === "Set") {
    const values = liveEntries(data).map(([v]) => _inspect(v))
    write(realm, renderTable(["(iteration index)", "Values"], [getIndexArray(values.length), values]))
    return undefined
  }

  const propertyList = properties instanceof ArrayObject ? Array.from({ length: properties.length }, (_, i) => dataOf(properties as JSObject, String(i))) : undefined
  const map = new Map<string, Array<string | undefined>>()
  let hasPrimitives = false
  const valuesKeyArray: Array<string | undefined> = []
  const indexKeyArray = ownKeys(data)
  for (let i = 0; i < indexKeyArray.length; i++) {
    const item = dataOf(data, indexKeyArray[i]!)
    const primitive = !(item instanceof JSObject)
    if (propertyList === undefined && primitive) {
      hasPrimitives = true
      valuesKeyArray[i] = _inspect(item)
    } else {
      const keys = propertyList ?? ownKeys(item as JSObject)
      for (const key of keys) {
        const k = typeof key === "string" ? key : String(key)
        let column = map.get(k)
        if (column === undefined) {
          column = []
          map.set(k, column)
        }
        if ((primitive && propertyList) || !(item instanceof JSObject) || item.GetOwnProperty(k) === undefined) column[i] = ""
        else column[i] = _inspect(dataOf(item, k))
      }
    }
  }
  const keys = [...map.keys()]
  const values = [...map.values()]
  if (hasPrimitives) {
    keys.push("Values")
    values.push(valuesKeyArray)
  }
  keys.unshift("(index)")
  values.unshift(indexKeyArray)
  write(realm, renderTable(keys, values))
  return undefined
}

/** A Map's or Set's live entries (map-set.ts keeps deleted slots as EMPTY). */
const liveEntries = (o: JSObject): Array<[Value, Value]> => {
  const c = o as unknown as { entryKeys?: unknown; entryValues?: unknown }
  const out: Array<[Value, Value]> = []
  if (Array.isArray(c.entryKeys)) {
    const vals = Array.isArray(c.entryValues) ? (c.entryValues as Value[]) : []
    c.entryKeys.forEach((k: unknown, i: number) => {
      if (k !== EMPTY) out.push([k as Value, vals[i] as Value])
    })
  }
  return out
}

/** How console.log prints one non-string argument. */
const inspectLog = (realm: Realm, v: Value): string => (typeof v === "string" ? v : inspect(realm, v))

export const install = (realm: Realm): void => {
  const console = new ConsoleObject(realm.ObjectPrototype)
  realm.register("%console%", console)
  defineMethods(realm, console, "%console%", [
    ["log", Console_log, 0],
    ["info", Console_log, 0],
    ["debug", Console_log, 0],
    ["warn", Console_log, 0],
    ["error", Console_log, 0],
    ["dir", Console_dir, 0],
    ["dirxml", Console_log, 0],
    ["table", Console_table, 0],
    ["trace", Console_trace, 0],
    ["assert", Console_assert, 0],
    ["count", Console_count, 0],
    ["countReset", Console_countReset, 0],
    ["group", Console_group, 0],
    ["groupCollapsed", Console_group, 0],
    ["groupEnd", Console_groupEnd, 0],
    ["time", Console_time, 0],
    ["timeEnd", Console_timeEnd, 0],
    ["timeLog", Console_timeLog, 0],
  ])
  // Node's console methods are enumerable own properties.
  for (const p of console.properties.values()) p.enumerable = true
  defineValues(console, [[WellKnownSymbols.toStringTag, "console"]], { writable: false, enumerable: false, configurable: true })
  realm.globalObject.properties.set("console", Property.data(console, true, false, true))
}
