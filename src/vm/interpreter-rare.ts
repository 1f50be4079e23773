/**
 * The out-of-line half of the run loop: instructions that are rare in hot code (classes, generators and async
 * functions, iteration setup, destructuring helpers, super, private names, spread, literals needing the realm).
 * `runFrame` keeps its switch small so the host JIT optimizes it well, and hands these here with the frame's pc
 * at the opcode. Same conventions as interpreter.ts: returns true when the frame stack changed (the caller must
 * return to the machine), false to continue with the frame's updated pc and sp.
 */
import type { CodeObject, TemplateSite } from "../bytecode/code.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { SandboxError, ThrowCompletion, throwReferenceError, throwTypeError } from "../runtime/completion.ts"
import { ToNumber, ToObject } from "../runtime/conversions.ts"
import { IsConstructor, type ScriptFunction } from "../runtime/function-object.ts"
import { CheckClassHeritage, ClassCreate, DefineMethodProperty, DefinePrivateMethod, DerivedConstructorResult } from "../runtime/class-elements.ts"
import { AsyncGeneratorCompleteStep, AwaitPromise, AwaitThen, awaitPromiseFast, type GeneratorObject } from "../runtime/generator.ts"
import { AddDisposableResource, DisposeBegin, type DisposeCapability, DisposeEnd, DisposeNext, DisposeRecordError, NewDisposeCapability } from "../runtime/dispose.ts"
import { CreateIterResultObject, type IteratorRecord } from "../runtime/iteration.ts"
import { type DestructureSite, notDestructurableMessage } from "../runtime/not-destructurable.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import { JSObject, PrivateName } from "../runtime/object.ts"
import { CreateDataPropertyOrThrow, describeValue, throwNotInOperand } from "../runtime/operations.ts"
import { UnaryPlusPrimitive } from "../runtime/operators.ts"
import type { PromiseObject } from "../runtime/promise.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type Primitive, type PropertyKey, type Value } from "../runtime/value.ts"
import type { Environment, Frame } from "./frame.ts"
import { FrameKind } from "./frame.ts"
import { type Machine, PENDING, runSlow, startGenerator, SuspendKind } from "./machine.ts"
import { ErrorTypeCode, METHOD_ENUMERABLE, Op, type Opcode, ResumeMode, unreachable } from "../bytecode/opcodes.ts"
import {
  CreateArgumentsObject,
  CreateTemplateObject,
  fastArrayRecord,
  ForInIteratorOf,
  IteratorCloseForThrow,
  IteratorCloseIfNotDone,
  IteratorRest,
  PrivateElementAdd,
  PrivateGetFast,
  PrivateSetFast,
  PutValueTask,
  SetFunctionName,
  iteratorStepFast,
  MakeFunction,
  propertyKeyFast,
  setFast,
  MISS,
} from "./operations.ts"
import {
  arrayValues,
  AsyncIterReturnTask,
  checkSuperConstructor,
  CopyDataPropertiesTask,
  DeleteTask,
  deleteProperty,
  GetAsyncIteratorTask,
  GetIteratorTask,
  InitializeInstanceElements,
  InstanceofTask,
  InTask,
  IterResultValueTask,
  SpreadTask,
  SuperGetTask,
  SuperSetTask,
  ToPropertyKeyTask,
  YieldStarCallTask,
} from "./tasks.ts"
import { isTask } from "../runtime/task.ts"
import type { HotOpcode } from "./interpreter.ts"

export type RareOpcode = Exclude<Opcode, HotOpcode>

/** ThrowError's type operand, in ErrorTypeCode order. */
const ERROR_TYPES = Object.keys(ErrorTypeCode) as Array<keyof typeof ErrorTypeCode>

export function runRareOp(m: Machine, frame: Frame, op: RareOpcode): boolean {
  const realm = m.realm
  const code = frame.code as CodeObject
  const bc = code.bytecode
  const consts = code.constants
  const regs = frame.regs
  let pc = frame.pc + 1
  let sp = frame.sp
  switch (op) {
    case 24 satisfies typeof Op.SaveEnv:
      regs[bc[pc++] as number] = frame.env ?? null
      break
    case 25 satisfies typeof Op.RestoreEnv:
      frame.env = regs[bc[pc++] as number] as Environment | null
      break

    case 28 satisfies typeof Op.StoreGlobal: {
      const name = consts[bc[pc++] as number] as string
      const v = regs[--sp] as Value
      const global = realm.globalObject
      if (!global.HasProperty(name)) {
        if (code.strict) throwReferenceError(`${name} is not defined`)
        CreateDataPropertyOrThrow(global, name, v)
      } else if (!setFast(global, name, v) && runSlow(m, frame, pc, sp, PutValueTask(realm, global, name, v, code.strict), true) === PENDING) return true
      break
    }
    case 29 satisfies typeof Op.LoadGlobalObject:
      regs[sp++] = realm.globalObject
      break
    case 31 satisfies typeof Op.LoadFrameNewTarget:
      regs[sp++] = frame.newTarget
      break
    case 33 satisfies typeof Op.CreateArguments:
      regs[sp++] = CreateArgumentsObject(
        realm,
        frame.args ?? [],
        frame.func,
        code.strict,
        // The function's environment record, which the prologue has just entered, holds the mapped parameters.
        code.argumentsMap === undefined ? undefined : { env: frame.env!, slots: code.argumentsMap },
      )
      break
    case 34 satisfies typeof Op.CreateRest:
      regs[sp++] = new ArrayObject(realm.ArrayPrototype, (frame.args ?? []).slice(bc[pc++] as number))
      break

    case 38 satisfies typeof Op.ArrayPushHole: {
      const arr = regs[sp - 1] as ArrayObject
      arr.length++
      break
    }
    case 39 satisfies typeof Op.ArraySpread: {
      const message = bc[pc++] as number
      const iterable = regs[--sp] as Value
      const arr = regs[--sp] as ArrayObject
      {
        const res = runSlow(m, frame, pc, sp, SpreadTask(realm, arr, iterable, message < 0 ? undefined : (consts[message] as NotIterableSite), (r) => iteratorStepFast(realm, r)))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 47 satisfies typeof Op.DefineElem: {
      const v = regs[--sp] as Value
      const key = regs[--sp] as PropertyKey
      CreateDataPropertyOrThrow(regs[sp - 1] as JSObject, key, v)
      break
    }
    case 48 satisfies typeof Op.DefineMethod: {
      const flags = bc[pc++] as number
      const fn = regs[--sp] as ScriptFunction
      const key = regs[--sp] as PropertyKey
      DefineMethodProperty(regs[sp - 1] as JSObject, key, fn, flags & 3, (flags & METHOD_ENUMERABLE) !== 0)
      break
    }
    case 49 satisfies typeof Op.SetFunctionName:
      SetFunctionName(regs[sp - 1] as JSObject, regs[sp - 2] as PropertyKey)
      break
    case 50 satisfies typeof Op.SetProto: {
      const proto = regs[--sp] as Value
      if (proto instanceof JSObject || proto === null) (regs[sp - 1] as JSObject).SetPrototypeOf(proto)
      break
    }
    case 51 satisfies typeof Op.CopyDataProperties: {
      const source = regs[--sp] as Value
      const target = regs[--sp] as JSObject
      {
        const res = runSlow(m, frame, pc, sp, CopyDataPropertiesTask(realm, target, source, []))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 52 satisfies typeof Op.CopyDataPropertiesExcluding: {
      const n = bc[pc++] as number
      const excluded = regs.slice(sp - n, sp) as PropertyKey[]
      sp -= n
      const source = regs[--sp] as Value
      const target = regs[--sp] as JSObject
      {
        const res = runSlow(m, frame, pc, sp, CopyDataPropertiesTask(realm, target, source, excluded))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 53 satisfies typeof Op.ToPropertyKey: {
      const v = regs[sp - 1] as Value
      const k = propertyKeyFast(v)
      if (k !== MISS) regs[sp - 1] = k as Value
      else {
        sp--
        {
        const res = runSlow(m, frame, pc, sp, ToPropertyKeyTask(realm, v))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      }
      break
    }
    case 54 satisfies typeof Op.RequireObjectCoercible: {
      const hint = bc[pc++] as number
      const v = regs[sp - 1]
      if (v === undefined || v === null) throwTypeError(notDestructurableMessage(consts[hint] as DestructureSite, v))
      break
    }
    case 55 satisfies typeof Op.Delete: {
      const key = regs[--sp] as Value
      const obj = ToObject(realm, regs[--sp] as Value)
      const k = propertyKeyFast(key)
      if (k !== MISS) regs[sp++] = deleteProperty(obj, k, code.strict)
      else {
        const res = runSlow(m, frame, pc, sp, DeleteTask(realm, obj, key, code.strict))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 56 satisfies typeof Op.In: {
      const obj = regs[--sp] as Value
      const key = regs[--sp] as Value
      const k = propertyKeyFast(key)
      if (obj instanceof JSObject && k !== MISS) regs[sp++] = obj.HasProperty(k)
      else {
        const res = runSlow(m, frame, pc, sp, InTask(realm, key, obj))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 57 satisfies typeof Op.Instanceof: {
      const target = regs[--sp] as Value
      const v = regs[--sp] as Value
      {
        const res = runSlow(m, frame, pc, sp, InstanceofTask(v, target))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 58 satisfies typeof Op.PrivateIn: {
      const P = regs[--sp] as PrivateName
      const obj = regs[--sp] as Value
      if (!(obj instanceof JSObject)) throwNotInOperand(P.description, obj)
      regs[sp++] = (obj as JSObject).privateElements?.has(P) === true
      break
    }
    case 59 satisfies typeof Op.GetPrivate: {
      const P = regs[--sp] as PrivateName
      const obj = regs[--sp] as Value
      const r = PrivateGetFast(obj, P)
      if ("value" in r) regs[sp++] = r.value
      else {
        frame.pc = pc
        frame.sp = sp
        m.invoke(r.getter, obj, [], undefined)
        return true
      }
      break
    }
    case 60 satisfies typeof Op.PutPrivate: {
      const v = regs[--sp] as Value
      const P = regs[--sp] as PrivateName
      const obj = regs[--sp] as Value
      const setter = PrivateSetFast(obj, P, v)
      if (setter === undefined) regs[sp++] = v
      else {
        const res = runSlow(m, frame, pc, sp, callThenReturn(setter, obj, v))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 61 satisfies typeof Op.DefinePrivateField: {
      const v = regs[--sp] as Value
      const P = regs[--sp] as PrivateName
      PrivateElementAdd(regs[sp - 1] as Value, P, { kind: "field", value: v, get: undefined, set: undefined })
      break
    }

    case 63 satisfies typeof Op.GetSuperField:
    case 64 satisfies typeof Op.GetSuperElem: {
      const key = op === Op.GetSuperField ? (consts[bc[pc++] as number] as string) : (regs[--sp] as Value)
      const thisValue = regs[--sp] as Value
      const func = regs[--sp] as Value
      {
        const res = runSlow(m, frame, pc, sp, SuperGetTask(realm, func, thisValue, key))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 65 satisfies typeof Op.PutSuperField:
    case 66 satisfies typeof Op.PutSuperElem: {
      const key = op === Op.PutSuperField ? (consts[bc[pc++] as number] as string) : undefined
      const v = regs[--sp] as Value
      const k = key ?? (regs[--sp] as Value)
      const thisValue = regs[--sp] as Value
      const func = regs[--sp] as Value
      {
        const res = runSlow(m, frame, pc, sp, SuperSetTask(realm, func, thisValue, k, v))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 67 satisfies typeof Op.SuperCall:
    case 68 satisfies typeof Op.SuperCallSpread:
    case 69 satisfies typeof Op.SuperCallForward: {
      let args: ReadonlyArray<Value>
      if (op === Op.SuperCall) {
        const argc = bc[pc++] as number
        args = regs.slice(sp - argc, sp) as Value[]
        sp -= argc
      } else if (op === Op.SuperCallSpread) args = arrayValues(regs[--sp] as Value)
      else args = frame.args ?? []
      const newTarget = regs[--sp] as JSObject
      const func = regs[--sp] as Value
      const parent = checkSuperConstructor(func)
      frame.pc = pc
      frame.sp = sp
      m.steps--
      m.invoke(parent, undefined, args, newTarget)
      return true
    }

    case 91 satisfies typeof Op.Plus: {
      const v = regs[sp - 1]
      if (typeof v === "number") break
      if (!(v instanceof JSObject)) regs[sp - 1] = UnaryPlusPrimitive(v as Primitive)
      else {
        sp--
        {
        const res = runSlow(m, frame, pc, sp, plusTask(realm, v))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      }
      break
    }
    case 107 satisfies typeof Op.Throw:
      throw new ThrowCompletion(regs[--sp] as Value)
    case 109 satisfies typeof Op.ThrowError: {
      const type = ERROR_TYPES[bc[pc++] as number] as (typeof ERROR_TYPES)[number]
      throw new SandboxError(type, consts[bc[pc++] as number] as string)
    }
    case 110 satisfies typeof Op.DerivedCtorReturn: {
      const thisValue = regs[--sp] as Value | Empty
      const v = regs[--sp] as Value
      regs[sp++] = DerivedConstructorResult(v, thisValue)
      break
    }

    case 112 satisfies typeof Op.CallSpread: {
      const text = bc[pc++] as number
      const args = arrayValues(regs[--sp] as Value)
      const f = regs[--sp] as Value
      const thisArg = regs[--sp] as Value
      m.steps--
      frame.pc = pc
      frame.sp = sp
      m.invoke(f, thisArg, args, undefined, consts[text] as string)
      return true
    }
    case 114 satisfies typeof Op.NewSpread: {
      const text = bc[pc++] as number
      const args = arrayValues(regs[--sp] as Value)
      const C = regs[--sp] as Value
      m.steps--
      frame.pc = pc
      frame.sp = sp
      if (!IsConstructor(C)) throwTypeError(`${consts[text] as string} is not a constructor`)
      m.invoke(C, undefined, args, C as JSObject, consts[text] as string)
      return true
    }

    case 116 satisfies typeof Op.ClassCreate: {
      const ctorCode = m.program.codes[bc[pc++] as number] as CodeObject
      const derived = (bc[pc++] as number) === 1
      const protoParent = regs[--sp] as Value
      const superclass = regs[--sp] as Value
      const { F, proto } = ClassCreate(realm, derived, superclass, protoParent, (ctorParent) => MakeFunction(realm, ctorCode, frame.env, ctorParent))
      regs[sp++] = F
      regs[sp++] = proto
      break
    }
    case 117 satisfies typeof Op.ClassField: {
      const init = regs[--sp] as ScriptFunction | undefined
      const key = regs[--sp] as PropertyKey | PrivateName
      const F = regs[sp - 1] as ScriptFunction
      if (init !== undefined) init.homeObject = F.properties.get("prototype")?.value as JSObject
      F.fields.push({ name: key, initializer: init })
      break
    }
    case 118 satisfies typeof Op.ClassPrivateMethod: {
      const flags = bc[pc++] as number
      const fn = regs[--sp] as ScriptFunction
      const P = regs[--sp] as PrivateName
      const F = regs[sp - 1] as ScriptFunction
      DefinePrivateMethod(F, P, fn, flags & 3, (flags & 8) !== 0)
      break
    }
    case 119 satisfies typeof Op.NewPrivateName:
      regs[sp++] = new PrivateName(consts[bc[pc++] as number] as string)
      break
    case 120 satisfies typeof Op.InitInstanceElements: {
      const thisValue = regs[--sp] as Value
      const F = regs[--sp] as ScriptFunction
      if (F.fields.length === 0 && F.privateMethods.length === 0) break
      if (runSlow(m, frame, pc, sp, InitializeInstanceElements(thisValue, F), true) === PENDING) return true
      break
    }
    case 144 satisfies typeof Op.CheckSuperOnce:
      if (regs[--sp] !== EMPTY) throwReferenceError("Super constructor may only be called once")
      break
    case 145 satisfies typeof Op.SetHomeObject: {
      const home = regs[--sp] as JSObject
      ;(regs[sp - 1] as ScriptFunction).homeObject = home
      break
    }
    case 146 satisfies typeof Op.CheckClassHeritage:
      CheckClassHeritage(regs[sp - 1] as Value)
      break

    case 121 satisfies typeof Op.TemplateObject: {
      const site = bc[pc++] as number
      const key = `${code.id}:${site}`
      let t = m.templates.get(key)
      if (t === undefined) {
        t = CreateTemplateObject(realm, consts[site] as TemplateSite)
        m.templates.set(key, t)
      }
      regs[sp++] = t
      break
    }
    case 122 satisfies typeof Op.RegExp: {
      const pattern = consts[bc[pc++] as number] as string
      const flags = consts[bc[pc++] as number] as string
      const RegExpCtor = realm.intrinsic("%RegExp%")
      frame.pc = pc
      frame.sp = sp
      m.invoke(RegExpCtor, undefined, [pattern, flags], RegExpCtor)
      return true
    }

    case 123 satisfies typeof Op.GetIterator:
    case 124 satisfies typeof Op.GetAsyncIterator: {
      const message = bc[pc++] as number
      const fastAllowed = bc[pc++] === 1
      const obj = regs[--sp] as Value
      const site = message < 0 ? undefined : (consts[message] as NotIterableSite)
      const fast = fastAllowed && op === Op.GetIterator ? fastArrayRecord(realm, obj) : undefined
      if (fast !== undefined) {
        regs[sp++] = fast
        break
      }
      {
        const res = runSlow(m, frame, pc, sp, op === Op.GetIterator ? GetIteratorTask(realm, obj, site) : GetAsyncIteratorTask(realm, obj, site))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 125 satisfies typeof Op.IterStep: {
      const record = regs[--sp] as IteratorRecord
      const step = iteratorStepFast(realm, record)
      if (step === EMPTY) regs[sp++] = undefined
      else if (!isTask(step)) regs[sp++] = step as Value
      else {
        const res = runSlow(m, frame, pc, sp, undefinedWhenDone(step as Task<Value | Empty>))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 126 satisfies typeof Op.IterRest: {
      const record = regs[--sp] as IteratorRecord
      {
        const res = runSlow(m, frame, pc, sp, IteratorRest(realm, record))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 127 satisfies typeof Op.IterClose: {
      const record = regs[--sp] as IteratorRecord
      if (!record.done && runSlow(m, frame, pc, sp, IteratorCloseIfNotDone(realm, record), true) === PENDING) return true
      break
    }
    case 128 satisfies typeof Op.IterCloseForThrow: {
      const record = regs[--sp] as IteratorRecord
      const error = regs[--sp] as Value
      if (record.done) throw new ThrowCompletion(error)
      runSlow(m, frame, pc, sp, IteratorCloseForThrow(realm, record, error), true)
      return true
    }
    case 130 satisfies typeof Op.IterNextCall: {
      const record = regs[--sp] as IteratorRecord
      frame.pc = pc
      frame.sp = sp
      m.invoke(record.nextMethod, record.iterator, [], undefined)
      return true
    }
    case 131 satisfies typeof Op.IterResultValue: {
      const result = regs[--sp] as Value
      {
        const res = runSlow(m, frame, pc, sp, IterResultValueTask(result))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 132 satisfies typeof Op.AsyncIterReturn: {
      const record = regs[--sp] as IteratorRecord
      {
        const res = runSlow(m, frame, pc, sp, AsyncIterReturnTask(realm, record))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 133 satisfies typeof Op.CheckObject: {
      const v = regs[sp - 1] as Value
      if (!(v instanceof JSObject)) throwTypeError(`Iterator result ${describeValue(v)} is not an object`)
      break
    }
    case 134 satisfies typeof Op.ForInPrepare:
      regs[sp - 1] = ForInIteratorOf(realm, regs[sp - 1] as Value)
      break
    case 136 satisfies typeof Op.GeneratorStart:
      frame.pc = pc
      frame.sp = sp
      startGenerator(m, frame)
      return true
    case 137 satisfies typeof Op.Yield: {
      const raw = (bc[pc++] as number) === 1
      const v = regs[--sp] as Value
      const gen = frame.activation as GeneratorObject
      if (frame.kind === FrameKind.AsyncGenerator) {
        const next = gen.queue[0]
        if (next !== undefined) {
          // AsyncGeneratorYield: a request is already waiting; continue with it.
          regs[sp++] = next.completion.value
          regs[sp++] = next.completion.kind === "next" ? ResumeMode.Next : next.completion.kind === "throw" ? ResumeMode.Throw : ResumeMode.Return
          break
        }
        gen.state = "suspendedYield"
        frame.pc = pc
        frame.sp = sp
        m.suspend(frame, SuspendKind.Yield)
        m.deliver(undefined)
        return true
      }
      gen.state = "suspendedYield"
      frame.pc = pc
      frame.sp = sp
      m.suspend(frame, SuspendKind.Yield)
      m.deliver(raw ? v : CreateIterResultObject(realm, v, false))
      return true
    }
    case 138 satisfies typeof Op.ResumeDispatch: {
      const target = bc[pc++] as number
      const mode = regs[--sp] as number
      if (mode === ResumeMode.Throw) throw new ThrowCompletion(regs[--sp] as Value)
      if (mode === ResumeMode.Return) pc = target
      break
    }
    case 139 satisfies typeof Op.AwaitPrepare: {
      const v = regs[--sp] as Value
      const p = awaitPromiseFast(realm, v)
      if (p !== undefined) regs[sp++] = p
      else {
        const res = runSlow(m, frame, pc, sp, AwaitPromise(realm, v))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 140 satisfies typeof Op.Await: {
      const promise = regs[--sp] as PromiseObject
      const activation = frame.activation as GeneratorObject
      AwaitThen(realm, activation, promise)
      frame.pc = pc
      frame.sp = sp
      m.suspend(frame, SuspendKind.Await)
      m.deliver(frame.kind === FrameKind.Async ? activation.promise : undefined)
      return true
    }
    case 141 satisfies typeof Op.AsyncGenCompleteYield: {
      const v = regs[--sp] as Value
      {
        const res = runSlow(m, frame, pc, sp, completeYieldTask(realm, frame.activation as GeneratorObject, v))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 142 satisfies typeof Op.YieldStarCall: {
      const mode = regs[--sp] as number
      const received = regs[--sp] as Value
      const record = regs[--sp] as IteratorRecord
      {
        const res = runSlow(m, frame, pc, sp, YieldStarCallTask(realm, record, received, mode, frame.kind === FrameKind.AsyncGenerator))
        if (res === PENDING) return true
        regs[sp++] = res
      }
      break
    }
    case 143 satisfies typeof Op.SetProgramCompletion:
      m.programCompletion = { value: regs[--sp] as Value }
      break
    case 147 satisfies typeof Op.NewDisposeCapability:
      regs[sp++] = NewDisposeCapability()
      break
    case 148 satisfies typeof Op.AddDisposable: {
      const hint = bc[pc++] === 1 ? "async-dispose" : "sync-dispose"
      const capability = regs[--sp] as DisposeCapability
      const v = regs[sp - 1] as Value
      if (!((v === null || v === undefined) && hint === "sync-dispose")) {
        const res = runSlow(m, frame, pc, sp, AddDisposableTask(realm, capability, v, hint), true)
        if (res === PENDING) return true
      }
      break
    }
    case 149 satisfies typeof Op.DisposeBegin: {
      const value = regs[--sp] as Value
      const thrown = regs[--sp] === true
      DisposeBegin(regs[--sp] as DisposeCapability, thrown, value)
      break
    }
    case 150 satisfies typeof Op.DisposeNext: {
      const capability = regs[--sp] as DisposeCapability
      const res = runSlow(m, frame, pc, sp, DisposeNext(realm, capability))
      if (res === PENDING) return true
      regs[sp++] = res
      break
    }
    case 151 satisfies typeof Op.DisposeRecordError: {
      const error = regs[--sp] as Value
      DisposeRecordError(realm, regs[--sp] as DisposeCapability, error)
      break
    }
    case 152 satisfies typeof Op.DisposeEnd:
      DisposeEnd(regs[--sp] as DisposeCapability)
      break
    default:
      return unreachable(op)
  }
  frame.pc = pc
  frame.sp = sp
  return false
}

function* AddDisposableTask(realm: Machine["realm"], capability: DisposeCapability, v: Value, hint: "sync-dispose" | "async-dispose"): Task<Value> {
  yield* AddDisposableResource(realm, capability, v, hint)
  return undefined
}

function* undefinedWhenDone(task: Task<Value | Empty>): Task<Value> {
  const v = yield* task
  return v === EMPTY ? undefined : v
}

function* callThenReturn(f: JSObject, thisArg: Value, v: Value): Task<Value> {
  yield { kind: "call", f, thisArg, args: [v] }
  return v
}

function* plusTask(realm: Machine["realm"], v: Value): Task<Value> {
  return yield* ToNumber(realm, v)
}

function* completeYieldTask(realm: Machine["realm"], gen: GeneratorObject, v: Value): Task<Value> {
  yield* AsyncGeneratorCompleteStep(realm, gen, { kind: "next", value: v }, false)
  return undefined
}

