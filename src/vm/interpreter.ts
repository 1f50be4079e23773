/**
 * The run loop of one script frame: a single `switch` over numeric opcodes, operands inline in the code's
 * Int32Array, registers and operand stack in one array, `pc` and `sp` in locals. Each case handles the common
 * case directly (numbers and strings, plain data properties, dense arrays, calls of plain built-ins) and hands
 * anything that may run user code to a Task (tasks.ts) via `Machine.startTask`. The loop returns to the machine
 * whenever the frame stack changes (a call, a return, a suspension, a task that needs frames) or the step
 * budget runs out; the machine then continues with whatever frame is on top. Host exceptions are caught once,
 * turned into sandbox throws (`toThrowCompletion`) and routed to the frame's handler table.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { checkStringLength } from "../runtime/caps.ts"
import { PollCompare, PollStringWork } from "../runtime/interrupt.ts"
import { throwReferenceError, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToNumberPrimitive, ToStringPrimitive, TypeOf, ToString } from "../runtime/conversions.ts"
import { looseEqualsFast } from "../runtime/comparison.ts"
import { tdzError } from "../runtime/references.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import { IsConstructor, NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import type { IteratorRecord } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { CreateDataPropertyOrThrow, GetV } from "../runtime/operations.ts"
import type { BinaryOperator } from "../runtime/operators.ts"
import { isTask, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, isMarker, type Primitive, type Value } from "../runtime/value.ts"
import type { CodeObject, RecordSite } from "../bytecode/code.ts"
import { Environment, type Frame, frameAt, FrameKind, type ForInIterator, type Slot, uninitializedSlots } from "./frame.ts"
import { isHostObject, type Machine, PENDING, runSlow } from "./machine.ts"
import { runRareOp } from "./interpreter-rare.ts"
import { addOwnCached, getCached, newRecord, setCached } from "./property-cache.ts"
import { Op, type Opcode } from "../bytecode/opcodes.ts"
import {
  ForInNext,
  GetValueTask,
  MakeFunction,
  MISS,
  PutValueTask,
  getFast,
  getIndexFast,
  iteratorStepFast,
  propertyKeyFast,
  setFast,
  setIndexFast,
} from "./operations.ts"
import {
  BinaryTask,
  binaryPrimitive,
  CompareTask,
  comparePrimitive,
  IncrementTask,
  LooseEqualsTask,
  type Relational,
  ToNumericTask,
  UnaryTask,
} from "./tasks.ts"

const BINARY_OPS: Partial<Record<number, BinaryOperator>> = {
  [Op.Add]: "+",
  [Op.Sub]: "-",
  [Op.Mul]: "*",
  [Op.Div]: "/",
  [Op.Mod]: "%",
  [Op.Exp]: "**",
  [Op.Shl]: "<<",
  [Op.Sar]: ">>",
  [Op.Shr]: ">>>",
  [Op.BitAnd]: "&",
  [Op.BitOr]: "|",
  [Op.BitXor]: "^",
}
const RELATIONAL: Partial<Record<number, Relational>> = { [Op.Lt]: "<", [Op.Gt]: ">", [Op.Le]: "<=", [Op.Ge]: ">=" }

const truthy = (v: Slot): boolean => (typeof v === "boolean" ? v : ToBoolean(v as Value))
const isNullish = (v: Slot): boolean => v === undefined || v === null

const walkEnv = (env: Environment | null, depth: number): Environment => {
  let e = env as Environment
  while (depth-- > 0) e = e.parent as Environment
  return e
}

/** The opcodes runFrame handles itself; the rest are in interpreter-rare.ts. */
export type HotOpcode = (typeof Op)[
  | "Undefined" | "Null" | "True" | "False" | "Int" | "Const" | "Pop" | "Dup" | "Dup2" | "Swap" | "Rot3" | "Rot4"
  | "LoadReg" | "LoadRegChecked" | "StoreReg" | "StoreRegChecked" | "ClearReg"
  | "LoadEnv" | "LoadEnvChecked" | "StoreEnv" | "StoreEnvChecked" | "PushEnv" | "PopEnv" | "CopyEnv"
  | "LoadGlobal" | "LoadGlobalOrUndefined" | "LoadFrameThis" | "LoadFrameFunction"
  | "NewObject" | "NewRecord" | "NewArray" | "ArrayPush" | "GetField" | "GetFieldReg" | "GetFieldForCall" | "GetElem" | "GetElemForCall" | "PutField" | "PutElem" | "DefineField"
  | "BinRegReg" | "Add" | "Sub" | "Mul" | "Div" | "Mod" | "Exp" | "Shl" | "Sar" | "Shr" | "BitAnd" | "BitOr" | "BitXor"
  | "StrictEq" | "StrictNe" | "Eq" | "Ne" | "Lt" | "Gt" | "Le" | "Ge" | "Neg" | "BitNot" | "Not" | "TypeOf" | "Inc" | "Dec" | "ToNumeric" | "ToString"
  | "Jump" | "JumpIfTrue" | "JumpIfFalse" | "JumpIfTruePeek" | "JumpIfFalsePeek" | "JumpIfNullishPeek" | "JumpIfNotNullishPeek" | "JumpIfNotUndefinedPeek" | "JumpIfDone"
  | "Return" | "Call" | "New" | "Closure" | "ForOfStep" | "ForInStep"
]

export function runFrame(m: Machine, entry: Frame): void {
  const realm = m.realm
  const frames = m.frames
  // Calls between script functions and their returns switch these in place instead of leaving the loop.
  let frame = entry
  let code = frame.code as CodeObject
  let bc = code.bytecode
  let consts = code.constants
  let regs = frame.regs
  let pc = frame.pc
  let sp = frame.sp
  try {
    for (;;) {
      const op = bc[pc++] as Opcode
      switch (op) {
        case 0 satisfies typeof Op.Undefined:
          regs[sp++] = undefined
          break
        case 1 satisfies typeof Op.Null:
          regs[sp++] = null
          break
        case 2 satisfies typeof Op.True:
          regs[sp++] = true
          break
        case 3 satisfies typeof Op.False:
          regs[sp++] = false
          break
        case 4 satisfies typeof Op.Int: {
          const k = bc[pc++] as number
          // \`x - 1\`, \`i * 3\`, \`n % 7\` on a number: apply the operator that follows in the same dispatch.
          const next = bc[pc] as Opcode
          const l = regs[sp - 1]
          if (typeof l === "number" && next >= Op.Add && next <= Op.BitXor) {
            regs[sp - 1] = next === Op.Add ? l + k : next === Op.Sub ? l - k : numberOp(next, l, k)
            pc++
            break
          }
          // \`i < 1000\` as a condition: the comparison and the forward JumpIfFalse after it too.
          if (typeof l === "number" && next >= Op.Lt && next <= Op.Ge && bc[pc + 1] === Op.JumpIfFalse && (bc[pc + 2] as number) > pc + 1) {
            const result = next === Op.Lt ? l < k : next === Op.Gt ? l > k : next === Op.Le ? l <= k : l >= k
            sp--
            pc = result ? pc + 3 : (bc[pc + 2] as number)
            break
          }
          // \`r.qty > 0\`, \`r.price === 996\` as a value (a callback's result): the comparison in the same dispatch.
          if (next >= Op.StrictEq && next <= Op.Ge && (typeof l === "number" || next <= Op.StrictNe)) {
            regs[sp - 1] =
              next === Op.StrictEq ? l === k : next === Op.StrictNe ? l !== k : next === Op.Lt ? (l as number) < k : next === Op.Gt ? (l as number) > k : next === Op.Le ? (l as number) <= k : (l as number) >= k
            pc++
            break
          }
          regs[sp++] = k
          break
        }
        case 5 satisfies typeof Op.Const:
          regs[sp++] = consts[bc[pc++] as number] as Value
          break
        case 6 satisfies typeof Op.Pop:
          sp--
          break
        case 7 satisfies typeof Op.Dup:
          regs[sp] = regs[sp - 1]
          sp++
          break
        case 8 satisfies typeof Op.Dup2:
          regs[sp] = regs[sp - 2]
          regs[sp + 1] = regs[sp - 1]
          sp += 2
          break
        case 9 satisfies typeof Op.Swap: {
          const t = regs[sp - 1]
          regs[sp - 1] = regs[sp - 2]
          regs[sp - 2] = t
          break
        }
        case 10 satisfies typeof Op.Rot3: {
          const c = regs[sp - 1]
          regs[sp - 1] = regs[sp - 2]
          regs[sp - 2] = regs[sp - 3]
          regs[sp - 3] = c
          break
        }
        case 11 satisfies typeof Op.Rot4: {
          const d = regs[sp - 1]
          regs[sp - 1] = regs[sp - 2]
          regs[sp - 2] = regs[sp - 3]
          regs[sp - 3] = regs[sp - 4]
          regs[sp - 4] = d
          break
        }

        case 12 satisfies typeof Op.LoadReg:
          regs[sp++] = regs[bc[pc++] as number]
          break
        case 13 satisfies typeof Op.LoadRegChecked: {
          const v = regs[bc[pc++] as number]
          const name = bc[pc++] as number
          if (v === EMPTY) tdzError(consts[name] as string)
          regs[sp++] = v
          break
        }
        case 14 satisfies typeof Op.StoreReg:
          regs[bc[pc++] as number] = regs[--sp]
          break
        case 15 satisfies typeof Op.StoreRegChecked: {
          const r = bc[pc++] as number
          const name = bc[pc++] as number
          if (regs[r] === EMPTY) tdzError(consts[name] as string)
          regs[r] = regs[--sp]
          break
        }
        case 16 satisfies typeof Op.ClearReg:
          regs[bc[pc++] as number] = EMPTY
          break
        case 17 satisfies typeof Op.LoadEnv: {
          const env = walkEnv(frame.env, bc[pc++] as number)
          regs[sp++] = env.slots[bc[pc++] as number]
          break
        }
        case 18 satisfies typeof Op.LoadEnvChecked: {
          const env = walkEnv(frame.env, bc[pc++] as number)
          const v = env.slots[bc[pc++] as number]
          const name = bc[pc++] as number
          if (v === EMPTY) tdzError(consts[name] as string)
          regs[sp++] = v
          break
        }
        case 19 satisfies typeof Op.StoreEnv: {
          const env = walkEnv(frame.env, bc[pc++] as number)
          env.slots[bc[pc++] as number] = regs[--sp] as Value
          break
        }
        case 20 satisfies typeof Op.StoreEnvChecked: {
          const env = walkEnv(frame.env, bc[pc++] as number)
          const slot = bc[pc++] as number
          const name = bc[pc++] as number
          if (env.slots[slot] === EMPTY) tdzError(consts[name] as string)
          env.slots[slot] = regs[--sp] as Value
          break
        }
        case 21 satisfies typeof Op.PushEnv:
          frame.env = new Environment(uninitializedSlots(bc[pc++] as number), frame.env)
          break
        case 22 satisfies typeof Op.PopEnv:
          frame.env = (frame.env as Environment).parent
          break
        case 23 satisfies typeof Op.CopyEnv: {
          const env = frame.env as Environment
          frame.env = new Environment(env.slots.slice(), env.parent)
          break
        }
        case 26 satisfies typeof Op.LoadGlobal:
        case 27 satisfies typeof Op.LoadGlobalOrUndefined: {
          const name = consts[bc[pc++] as number] as string
          const p = realm.globalObject.lookup(name)
          if (p === undefined) {
            if (op === Op.LoadGlobal) throwReferenceError(`${name} is not defined`)
            regs[sp++] = undefined
          } else if (!p.accessor) regs[sp++] = p.value
          else {
            const res = runSlow(m, frame, pc, sp, GetV(realm, realm.globalObject, name))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 30 satisfies typeof Op.LoadFrameThis:
          regs[sp++] = frame.thisValue
          break
        case 32 satisfies typeof Op.LoadFrameFunction:
          regs[sp++] = frame.func
          break
        case 35 satisfies typeof Op.NewObject:
          regs[sp++] = new JSObject(realm.ObjectPrototype)
          break
        case 153 satisfies typeof Op.NewRecord: {
          const n = bc[pc] as number
          sp -= n
          regs[sp] = newRecord(realm, code, pc - 1, consts[bc[pc + 1] as number] as RecordSite, regs, sp)
          sp++
          pc += 2
          break
        }
        case 36 satisfies typeof Op.NewArray:
          regs[sp++] = new ArrayObject(realm.ArrayPrototype, [])
          break
        case 37 satisfies typeof Op.ArrayPush: {
          const v = regs[--sp] as Value
          const arr = regs[sp - 1] as ArrayObject
          if (!arr.setOwnElement(arr.length, v)) CreateDataPropertyOrThrow(arr, String(arr.length), v)
          break
        }
        case 40 satisfies typeof Op.GetField: {
          const key = consts[bc[pc++] as number] as string
          const obj = regs[sp - 1] as Value
          let v = obj instanceof JSObject ? getCached(code, pc - 2, obj, key) : MISS
          if (isMarker(v)) v = getFast(realm, obj, key)
          if (!isMarker(v)) regs[sp - 1] = v
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, GetV(realm, obj, key))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 155 satisfies typeof Op.GetFieldReg:
        case 41 satisfies typeof Op.GetFieldForCall: {
          // GetFieldForCall keeps its object under the value; GetFieldReg reads it from a register (`r.price` of a
          // callback's parameter: the load and the read in one dispatch).
          const at = pc - 1
          const obj = (op === Op.GetFieldReg ? regs[bc[pc++] as number] : regs[sp - 1]) as Value
          const key = consts[bc[pc++] as number] as string
          let v = obj instanceof JSObject ? getCached(code, at, obj, key) : MISS
          if (isMarker(v)) v = getFast(realm, obj, key)
          if (!isMarker(v)) regs[sp++] = v
          else {
            const res = runSlow(m, frame, pc, sp, GetV(realm, obj, key))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 42 satisfies typeof Op.GetElem:
        case 43 satisfies typeof Op.GetElemForCall: {
          const key = regs[--sp] as Value
          const obj = regs[sp - 1] as Value
          let v: Value | typeof MISS = MISS
          if (typeof key === "number") v = getIndexFast(realm, obj, key)
          else {
            const k = propertyKeyFast(key)
            if (k !== MISS) v = getFast(realm, obj, k)
          }
          if (op === Op.GetElem) sp--
          if (v !== MISS) regs[sp++] = v
          else {
            const res = runSlow(m, frame, pc, sp, GetValueTask(realm, obj, key))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 44 satisfies typeof Op.PutField: {
          const key = consts[bc[pc++] as number] as string
          const v = regs[--sp] as Value
          const obj = regs[--sp] as Value
          if ((obj instanceof JSObject && setCached(code, pc - 2, obj, key, v)) || setFast(obj, key, v)) regs[sp++] = v
          else {
            const res = runSlow(m, frame, pc, sp, PutValueTask(realm, obj, key, v, code.strict))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 45 satisfies typeof Op.PutElem: {
          const v = regs[--sp] as Value
          const key = regs[--sp] as Value
          const obj = regs[--sp] as Value
          let done = false
          if (typeof key === "number") done = setIndexFast(realm, obj, key, v)
          else if (typeof key === "string" && !(obj instanceof ArrayObject)) done = setFast(obj, key, v)
          if (done) regs[sp++] = v
          else {
            const res = runSlow(m, frame, pc, sp, PutValueTask(realm, obj, key, v, code.strict))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 46 satisfies typeof Op.DefineField: {
          const key = consts[bc[pc++] as number] as string
          const v = regs[--sp] as Value
          const obj = regs[sp - 1] as JSObject
          if (!addOwnCached(code, pc - 2, obj, key, v)) CreateDataPropertyOrThrow(obj, key, v)
          break
        }
        case 70 satisfies typeof Op.Add: {
          const r = regs[--sp]
          const l = regs[sp - 1]
          if (typeof l === "number" && typeof r === "number") regs[sp - 1] = l + r
          else if (typeof l === "string" && typeof r === "string") {
            checkStringLength(l.length + r.length)
            regs[sp - 1] = l + r
          } else if (typeof l === "string" && typeof r === "number") {
            // `"tool" + i`: the host's concatenation converts the number as Number::toString does.
            const s = l + r
            checkStringLength(s.length)
            regs[sp - 1] = s
          } else if (!(l instanceof JSObject) && !(r instanceof JSObject)) regs[sp - 1] = binaryPrimitive("+", l as Value, r as Value)
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, BinaryTask(realm, "+", l as Value, r as Value))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 71 satisfies typeof Op.Sub: {
          const r = regs[--sp]
          const l = regs[sp - 1]
          if (typeof l === "number" && typeof r === "number") regs[sp - 1] = l - r
          else if (!(l instanceof JSObject) && !(r instanceof JSObject)) regs[sp - 1] = binaryPrimitive("-", l as Value, r as Value)
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, BinaryTask(realm, "-", l as Value, r as Value))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 72 satisfies typeof Op.Mul:
        case 73 satisfies typeof Op.Div:
        case 74 satisfies typeof Op.Mod:
        case 75 satisfies typeof Op.Exp:
        case 76 satisfies typeof Op.Shl:
        case 77 satisfies typeof Op.Sar:
        case 78 satisfies typeof Op.Shr:
        case 79 satisfies typeof Op.BitAnd:
        case 80 satisfies typeof Op.BitOr:
        case 81 satisfies typeof Op.BitXor: {
          const r = regs[--sp]
          const l = regs[sp - 1]
          if (typeof l === "number" && typeof r === "number") regs[sp - 1] = numberOp(op, l, r)
          else if (!(l instanceof JSObject) && !(r instanceof JSObject)) regs[sp - 1] = binaryPrimitive(BINARY_OPS[op]!, l as Value, r as Value)
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, BinaryTask(realm, BINARY_OPS[op]!, l as Value, r as Value))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 154 satisfies typeof Op.BinRegReg: {
          // `a - b` of a comparator, `s + x` of a reducer: both operands straight from their registers.
          const l = regs[bc[pc] as number]
          const r = regs[bc[pc + 1] as number]
          const o = bc[pc + 2] as Opcode
          pc += 3
          if (typeof l === "number" && typeof r === "number") regs[sp++] = o === Op.Sub ? l - r : o === Op.Add ? l + r : numberOp(o, l, r)
          else if (!(l instanceof JSObject) && !(r instanceof JSObject)) regs[sp++] = binaryPrimitive(BINARY_OPS[o]!, l as Value, r as Value)
          else {
            const res = runSlow(m, frame, pc, sp, BinaryTask(realm, BINARY_OPS[o]!, l as Value, r as Value))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 84 satisfies typeof Op.StrictEq: {
          const r = regs[--sp]
          PollCompare(r)
          regs[sp - 1] = regs[sp - 1] === r
          break
        }
        case 85 satisfies typeof Op.StrictNe: {
          const r = regs[--sp]
          PollCompare(r)
          regs[sp - 1] = regs[sp - 1] !== r
          break
        }
        case 82 satisfies typeof Op.Eq:
        case 83 satisfies typeof Op.Ne: {
          const r = regs[--sp] as Value
          const l = regs[--sp] as Value
          PollCompare(r)
          const eq = looseEqualsFast(l, r)
          if (eq !== MISS) regs[sp++] = op === Op.Eq ? eq : !eq
          else {
            const res = runSlow(m, frame, pc, sp, LooseEqualsTask(realm, l, r, op === Op.Ne))
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 86 satisfies typeof Op.Lt:
        case 87 satisfies typeof Op.Gt:
        case 88 satisfies typeof Op.Le:
        case 89 satisfies typeof Op.Ge: {
          const r = regs[--sp]
          const l = regs[sp - 1]
          if ((typeof l === "number" && typeof r === "number") || (typeof l === "string" && typeof r === "string")) {
            const result = op === Op.Lt ? l < r : op === Op.Gt ? l > r : op === Op.Le ? l <= r : l >= r
            // A loop's or an if's condition: take the JumpIfFalse that follows here, one dispatch fewer.
            if (bc[pc] === Op.JumpIfFalse && (bc[pc + 1] as number) > pc) {
              sp--
              pc = result ? pc + 2 : (bc[pc + 1] as number)
              break
            }
            regs[sp - 1] = result
          } else if (!(l instanceof JSObject) && !(r instanceof JSObject)) {
            regs[sp - 1] = comparePrimitive(RELATIONAL[op]!, l as Primitive, r as Primitive)
          } else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, CompareTask(realm, RELATIONAL[op]!, l as Value, r as Value))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 90 satisfies typeof Op.Neg:
        case 92 satisfies typeof Op.BitNot: {
          const v = regs[sp - 1]
          if (typeof v === "number" || typeof v === "bigint") regs[sp - 1] = op === Op.Neg ? -v : ~v
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, UnaryTask(realm, op === Op.Neg ? "-" : "~", v as Value))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 93 satisfies typeof Op.Not:
          regs[sp - 1] = !truthy(regs[sp - 1])
          break
        case 94 satisfies typeof Op.TypeOf:
          regs[sp - 1] = TypeOf(regs[sp - 1] as Value)
          break
        case 95 satisfies typeof Op.Inc:
        case 96 satisfies typeof Op.Dec: {
          const v = regs[sp - 1]
          const d = op === Op.Inc ? 1 : -1
          if (typeof v === "number") regs[sp - 1] = v + d
          else if (typeof v === "bigint") regs[sp - 1] = v + BigInt(d)
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, IncrementTask(realm, v as Value, d))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 97 satisfies typeof Op.ToNumeric: {
          const v = regs[sp - 1]
          if (typeof v === "number" || typeof v === "bigint") break
          if (!(v instanceof JSObject)) regs[sp - 1] = ToNumberPrimitive(v as Primitive)
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, ToNumericTask(realm, v))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }
        case 98 satisfies typeof Op.ToString: {
          const v = regs[sp - 1]
          if (typeof v === "string") break
          if (!(v instanceof JSObject)) regs[sp - 1] = ToStringPrimitive(v as Primitive)
          else {
            sp--
            {
            const res = runSlow(m, frame, pc, sp, ToString(realm, v))
            if (res === PENDING) return
            regs[sp++] = res
          }
          }
          break
        }

        case 99 satisfies typeof Op.Jump: {
          const target = bc[pc] as number
          if (target < pc && --m.steps <= 0) {
            frame.pc = target
            frame.sp = sp
            return
          }
          pc = target
          break
        }
        case 100 satisfies typeof Op.JumpIfTrue:
        case 101 satisfies typeof Op.JumpIfFalse: {
          const target = bc[pc++] as number
          if (truthy(regs[--sp]) === (op === Op.JumpIfTrue)) {
            if (target < pc && --m.steps <= 0) {
              frame.pc = target
              frame.sp = sp
              return
            }
            pc = target
          }
          break
        }
        case 102 satisfies typeof Op.JumpIfTruePeek:
        case 103 satisfies typeof Op.JumpIfFalsePeek: {
          const target = bc[pc++] as number
          if (truthy(regs[sp - 1]) === (op === Op.JumpIfTruePeek)) pc = target
          break
        }
        case 104 satisfies typeof Op.JumpIfNullishPeek: {
          const target = bc[pc++] as number
          if (isNullish(regs[sp - 1])) pc = target
          break
        }
        case 105 satisfies typeof Op.JumpIfNotNullishPeek: {
          const target = bc[pc++] as number
          if (!isNullish(regs[sp - 1])) pc = target
          break
        }
        case 106 satisfies typeof Op.JumpIfNotUndefinedPeek: {
          const target = bc[pc++] as number
          if (regs[sp - 1] !== undefined) pc = target
          break
        }
        case 62 satisfies typeof Op.JumpIfDone: {
          const target = bc[pc++] as number
          if (regs[sp - 1] === EMPTY) {
            sp--
            pc = target
          }
          break
        }
        case 108 satisfies typeof Op.Return: {
          let v = regs[sp - 1] as Value
          frame.pc = pc
          frame.sp = sp - 1
          const caller = frameAt(frames, frames.length - 2)
          const kind = frame.kind
          if (kind === FrameKind.Normal && caller !== undefined && caller.task !== undefined) {
            // A callback returns to the built-in that called it, which runs on to its next call in place.
            const next = m.returnToNative(frame, caller, v)
            if (next === undefined) return
            frame = next
            code = frame.code as CodeObject
            bc = code.bytecode
            consts = code.constants
            regs = frame.regs
            pc = frame.pc
            sp = frame.sp
            break
          }
          if ((kind !== FrameKind.Normal && kind !== FrameKind.Construct) || caller === undefined || caller.task !== undefined) {
            m.returnFrom(frame, v)
            return
          }
          if (kind === FrameKind.Construct && !(v instanceof JSObject)) v = frame.thisValue
          frames.pop()
          m.returned(frame)
          frame = caller
          code = frame.code as CodeObject
          bc = code.bytecode
          consts = code.constants
          regs = frame.regs
          pc = frame.pc
          sp = frame.sp
          regs[sp++] = v
          break
        }
        case 111 satisfies typeof Op.Call: {
          const argc = bc[pc++] as number
          const text = bc[pc++] as number
          const base = sp - argc - 2
          const f = regs[base + 1]
          m.steps--
          frame.pc = pc
          if (f instanceof ScriptFunction) {
            frame.sp = base
            m.pushScript(f, regs[base] as Value, regs, base + 2, argc, undefined)
            if (m.steps <= 0) return
            frame = frames[frames.length - 1] as Frame
            code = frame.code as CodeObject
            bc = code.bytecode
            consts = code.constants
            regs = frame.regs
            pc = frame.pc
            sp = frame.sp
            break
          }
          const args = regs.slice(base + 2, sp) as Value[]
          sp = base
          frame.sp = base
          if (f instanceof NativeFunction) {
            const r = f.impl(realm, regs[base] as Value, args, undefined, f)
            PollStringWork(realm, regs[base], args[0], r)
            if (f.isTaskImpl || isHostObject(r)) {
              // A built-in that may run user code: run it inline until it needs the engine.
              const res = m.startTask(r as Task<Value>)
              if (res === PENDING) {
                // Its first callback (if it made one) runs in place.
                const next = m.scriptOnTop()
                if (next === undefined) return
                frame = next
                code = frame.code as CodeObject
                bc = code.bytecode
                consts = code.constants
                regs = frame.regs
                pc = frame.pc
                sp = frame.sp
                break
              }
              regs[sp++] = res
              break
            }
            regs[sp++] = r as Value
            break
          }
          m.invoke(f as Value, regs[base] as Value, args, undefined, consts[text] as string)
          return
        }
        case 113 satisfies typeof Op.New: {
          const argc = bc[pc++] as number
          const text = bc[pc++] as number
          const base = sp - argc - 1
          const C = regs[base]
          m.steps--
          frame.pc = pc
          frame.sp = base
          if (C instanceof ScriptFunction && C.constructable) {
            m.constructScript(C, regs, C, base + 1, argc)
            if (m.steps <= 0) return
            frame = frames[frames.length - 1] as Frame
            code = frame.code as CodeObject
            bc = code.bytecode
            consts = code.constants
            regs = frame.regs
            pc = frame.pc
            sp = frame.sp
            break
          }
          if (!IsConstructor(C as Value)) throwTypeError(`${consts[text] as string} is not a constructor`)
          m.invoke(C as JSObject, undefined, regs.slice(base + 1, sp) as Value[], C as JSObject, consts[text] as string)
          return
        }
        case 115 satisfies typeof Op.Closure:
          regs[sp++] = MakeFunction(realm, m.program.codes[bc[pc++] as number] as CodeObject, frame.env)
          break
        case 129 satisfies typeof Op.ForOfStep: {
          const step = iteratorStepFast(realm, regs[bc[pc++] as number] as IteratorRecord)
          if (!isTaskValue(step)) {
            if (bc[pc] === Op.JumpIfDone) {
              // The loop's JumpIfDone, which the compiler puts next, in the same dispatch.
              if (step === EMPTY) pc = bc[pc + 1] as number
              else {
                regs[sp++] = step as Value
                pc += 2
              }
            } else regs[sp++] = step as Value | Empty
          } else {
            const res = runSlow(m, frame, pc, sp, step as Task<Value | Empty>)
            if (res === PENDING) return
            regs[sp++] = res
          }
          break
        }
        case 135 satisfies typeof Op.ForInStep: {
          const it = regs[bc[pc++] as number] as ForInIterator
          const target = bc[pc++] as number
          const key = ForInNext(it)
          if (key === undefined) pc = target
          else regs[sp++] = key
          break
        }

        default: {
          // Everything else is out of line (interpreter-rare.ts): a small hot loop optimizes better.
          frame.pc = pc - 1
          frame.sp = sp
          if (runRareOp(m, frame, op)) return
          pc = frame.pc
          sp = frame.sp
        }
      }
    }
  } catch (e) {
    frame.pc = pc
    frame.sp = sp
    // The frame may have pushed nothing, or its task finished or failed inline: it is still on top.
    m.throwInto(toThrowCompletion(realm, e))
  }
}

const numberOp = (op: Opcode, l: number, r: number): number => {
  switch (op) {
    case 72 satisfies typeof Op.Mul:
      return l * r
    case 73 satisfies typeof Op.Div:
      return l / r
    case 74 satisfies typeof Op.Mod:
      return l % r
    case 75 satisfies typeof Op.Exp:
      return l ** r
    case 76 satisfies typeof Op.Shl:
      return l << r
    case 77 satisfies typeof Op.Sar:
      return l >> r
    case 78 satisfies typeof Op.Shr:
      return l >>> r
    case 79 satisfies typeof Op.BitAnd:
      return l & r
    case 80 satisfies typeof Op.BitOr:
      return l | r
    default:
      return l ^ r
  }
}

const isTaskValue = isTask





