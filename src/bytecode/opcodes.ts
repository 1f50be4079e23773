/**
 * Every opcode of the bytecode, defined once (as QuickJS's quickjs-opcode.h does): its number, its operands, how
 * many values it pops and pushes, and a one-line stack picture. The emitter (compiler/assembler.ts), the run loop's
 * dispatch (vm/interpreter.ts), the disassembler and the max-stack-depth verifier (disassemble.ts, verify.ts)
 * all read this table, so they cannot disagree. Operands are int32 words that follow the opcode word inline.
 *
 * Operand kinds: `reg` a frame register; `const` an index into the code object's constant pool; `name` a constant
 * that is a binding or property name; `int` an immediate; `label` an absolute pc; `depth`/`slot` an environment
 * coordinate; `code` the id of a function's code object; `count`/`flags`/`type` small immediates; `binop` the
 * opcode of an arithmetic operator (Add .. BitXor).
 *
 * Stack effects: `pop`/`push` are fixed counts, or a function of the operands for the few variadic opcodes.
 * A jump's `branch` is the number it pushes instead of `push` when it jumps (see JumpIfTruePeek); `end` marks
 * opcodes after which control never falls through.
 */

export type OperandKind = "reg" | "const" | "name" | "int" | "label" | "depth" | "slot" | "code" | "count" | "flags" | "type" | "binop"

export interface OpInfo {
  readonly code: number
  readonly operands: ReadonlyArray<OperandKind>
  readonly pop: number | ((operands: ReadonlyArray<number>) => number)
  readonly push: number
  /** Pushed instead of `push` when a conditional jump is taken. */
  readonly branch?: number
  /** Control never falls through to the next instruction. */
  readonly end?: true
  readonly stack: string
}

const argc0 = (ops: ReadonlyArray<number>): number => ops[0] as number

export const OPCODES = {
  // Stack and constants
  Undefined: { code: 0, operands: [], pop: 0, push: 1, stack: "-> undefined" },
  Null: { code: 1, operands: [], pop: 0, push: 1, stack: "-> null" },
  True: { code: 2, operands: [], pop: 0, push: 1, stack: "-> true" },
  False: { code: 3, operands: [], pop: 0, push: 1, stack: "-> false" },
  Int: { code: 4, operands: ["int"], pop: 0, push: 1, stack: "-> n" },
  Const: { code: 5, operands: ["const"], pop: 0, push: 1, stack: "-> constant" },
  Pop: { code: 6, operands: [], pop: 1, push: 0, stack: "v ->" },
  Dup: { code: 7, operands: [], pop: 1, push: 2, stack: "v -> v v" },
  Dup2: { code: 8, operands: [], pop: 2, push: 4, stack: "a b -> a b a b" },
  Swap: { code: 9, operands: [], pop: 2, push: 2, stack: "a b -> b a" },
  Rot3: { code: 10, operands: [], pop: 3, push: 3, stack: "a b c -> c a b" },
  Rot4: { code: 11, operands: [], pop: 4, push: 4, stack: "a b c d -> d a b c" },

  // Registers and environments
  LoadReg: { code: 12, operands: ["reg"], pop: 0, push: 1, stack: "-> v" },
  LoadRegChecked: { code: 13, operands: ["reg", "name"], pop: 0, push: 1, stack: "-> v (ReferenceError in TDZ)" },
  StoreReg: { code: 14, operands: ["reg"], pop: 1, push: 0, stack: "v ->" },
  StoreRegChecked: { code: 15, operands: ["reg", "name"], pop: 1, push: 0, stack: "v -> (ReferenceError in TDZ)" },
  ClearReg: { code: 16, operands: ["reg"], pop: 0, push: 0, stack: "-> (register enters its TDZ)" },
  LoadEnv: { code: 17, operands: ["depth", "slot"], pop: 0, push: 1, stack: "-> v" },
  LoadEnvChecked: { code: 18, operands: ["depth", "slot", "name"], pop: 0, push: 1, stack: "-> v (ReferenceError in TDZ)" },
  StoreEnv: { code: 19, operands: ["depth", "slot"], pop: 1, push: 0, stack: "v ->" },
  StoreEnvChecked: { code: 20, operands: ["depth", "slot", "name"], pop: 1, push: 0, stack: "v -> (ReferenceError in TDZ)" },
  PushEnv: { code: 21, operands: ["count"], pop: 0, push: 0, stack: "-> (new environment, slots in TDZ)" },
  PopEnv: { code: 22, operands: [], pop: 0, push: 0, stack: "-> (parent environment)" },
  CopyEnv: { code: 23, operands: [], pop: 0, push: 0, stack: "-> (per-iteration copy of the environment)" },
  SaveEnv: { code: 24, operands: ["reg"], pop: 0, push: 0, stack: "-> (register = environment)" },
  RestoreEnv: { code: 25, operands: ["reg"], pop: 0, push: 0, stack: "-> (environment = register)" },

  // Globals and the frame
  LoadGlobal: { code: 26, operands: ["name"], pop: 0, push: 1, stack: "-> v (ReferenceError if absent)" },
  LoadGlobalOrUndefined: { code: 27, operands: ["name"], pop: 0, push: 1, stack: "-> v (typeof)" },
  StoreGlobal: { code: 28, operands: ["name"], pop: 1, push: 0, stack: "v ->" },
  LoadGlobalObject: { code: 29, operands: [], pop: 0, push: 1, stack: "-> globalThis" },
  LoadFrameThis: { code: 30, operands: [], pop: 0, push: 1, stack: "-> this" },
  LoadFrameNewTarget: { code: 31, operands: [], pop: 0, push: 1, stack: "-> new.target" },
  LoadFrameFunction: { code: 32, operands: [], pop: 0, push: 1, stack: "-> active function" },
  CreateArguments: { code: 33, operands: [], pop: 0, push: 1, stack: "-> arguments" },
  CreateRest: { code: 34, operands: ["int"], pop: 0, push: 1, stack: "-> rest array" },

  // Objects and properties
  NewObject: { code: 35, operands: [], pop: 0, push: 1, stack: "-> {}" },
  NewRecord: { code: 153, operands: ["count", "const"], pop: argc0, push: 1, stack: "v1..vn -> { k1: v1, ..., kn: vn } (const: the keys)" },
  NewArray: { code: 36, operands: [], pop: 0, push: 1, stack: "-> []" },
  ArrayPush: { code: 37, operands: [], pop: 2, push: 1, stack: "arr v -> arr" },
  ArrayPushHole: { code: 38, operands: [], pop: 1, push: 1, stack: "arr -> arr" },
  ArraySpread: { code: 39, operands: ["const"], pop: 2, push: 1, stack: "arr iterable -> arr (const: not-iterable message)" },
  GetField: { code: 40, operands: ["name"], pop: 1, push: 1, stack: "obj -> obj.name" },
  GetFieldReg: { code: 155, operands: ["reg", "name"], pop: 0, push: 1, stack: "-> rA.name (LoadReg rA, GetField name)" },
  GetFieldForCall: { code: 41, operands: ["name"], pop: 1, push: 2, stack: "obj -> obj obj.name" },
  GetElem: { code: 42, operands: [], pop: 2, push: 1, stack: "obj key -> obj[key]" },
  GetElemForCall: { code: 43, operands: [], pop: 2, push: 2, stack: "obj key -> obj obj[key]" },
  PutField: { code: 44, operands: ["name"], pop: 2, push: 1, stack: "obj v -> v" },
  PutElem: { code: 45, operands: [], pop: 3, push: 1, stack: "obj key v -> v" },
  DefineField: { code: 46, operands: ["name"], pop: 2, push: 1, stack: "obj v -> obj" },
  DefineElem: { code: 47, operands: [], pop: 3, push: 1, stack: "obj key v -> obj" },
  DefineMethod: { code: 48, operands: ["flags"], pop: 3, push: 1, stack: "obj key fn -> obj (home object, name)" },
  SetFunctionName: { code: 49, operands: [], pop: 2, push: 2, stack: "key fn -> key fn (NamedEvaluation)" },
  SetProto: { code: 50, operands: [], pop: 2, push: 1, stack: "obj proto -> obj" },
  CopyDataProperties: { code: 51, operands: [], pop: 2, push: 1, stack: "target source -> target" },
  CopyDataPropertiesExcluding: {
    code: 52,
    operands: ["count"],
    pop: (ops) => (ops[0] as number) + 2,
    push: 1,
    stack: "target source k1..kn -> target",
  },
  ToPropertyKey: { code: 53, operands: [], pop: 1, push: 1, stack: "v -> key" },
  RequireObjectCoercible: { code: 54, operands: ["const"], pop: 1, push: 1, stack: "v -> v (TypeError if nullish)" },
  Delete: { code: 55, operands: [], pop: 2, push: 1, stack: "obj key -> bool" },
  In: { code: 56, operands: [], pop: 2, push: 1, stack: "key obj -> bool" },
  Instanceof: { code: 57, operands: [], pop: 2, push: 1, stack: "v C -> bool" },
  PrivateIn: { code: 58, operands: [], pop: 2, push: 1, stack: "obj #name -> bool" },
  GetPrivate: { code: 59, operands: [], pop: 2, push: 1, stack: "obj #name -> v" },
  PutPrivate: { code: 60, operands: [], pop: 3, push: 1, stack: "obj #name v -> v" },
  DefinePrivateField: { code: 61, operands: [], pop: 3, push: 1, stack: "obj #name v -> obj" },
  JumpIfDone: { code: 62, operands: ["label"], pop: 1, push: 1, branch: 0, stack: "v -> v, or jumps dropping the done marker" },

  // super
  GetSuperField: { code: 63, operands: ["name"], pop: 2, push: 1, stack: "func this -> super.name" },
  GetSuperElem: { code: 64, operands: [], pop: 3, push: 1, stack: "func this key -> super[key]" },
  PutSuperField: { code: 65, operands: ["name"], pop: 3, push: 1, stack: "func this v -> v" },
  PutSuperElem: { code: 66, operands: [], pop: 4, push: 1, stack: "func this key v -> v" },
  SuperCall: { code: 67, operands: ["count"], pop: (ops) => argc0(ops) + 2, push: 1, stack: "func newTarget a1..an -> this" },
  SuperCallSpread: { code: 68, operands: [], pop: 3, push: 1, stack: "func newTarget args -> this" },
  SuperCallForward: { code: 69, operands: [], pop: 2, push: 1, stack: "func newTarget -> this (frame arguments)" },

  // Operators
  Add: { code: 70, operands: [], pop: 2, push: 1, stack: "l r -> l + r" },
  Sub: { code: 71, operands: [], pop: 2, push: 1, stack: "l r -> l - r" },
  Mul: { code: 72, operands: [], pop: 2, push: 1, stack: "l r -> l * r" },
  Div: { code: 73, operands: [], pop: 2, push: 1, stack: "l r -> l / r" },
  Mod: { code: 74, operands: [], pop: 2, push: 1, stack: "l r -> l % r" },
  Exp: { code: 75, operands: [], pop: 2, push: 1, stack: "l r -> l ** r" },
  Shl: { code: 76, operands: [], pop: 2, push: 1, stack: "l r -> l << r" },
  Sar: { code: 77, operands: [], pop: 2, push: 1, stack: "l r -> l >> r" },
  Shr: { code: 78, operands: [], pop: 2, push: 1, stack: "l r -> l >>> r" },
  BitAnd: { code: 79, operands: [], pop: 2, push: 1, stack: "l r -> l & r" },
  BitOr: { code: 80, operands: [], pop: 2, push: 1, stack: "l r -> l | r" },
  BitXor: { code: 81, operands: [], pop: 2, push: 1, stack: "l r -> l ^ r" },
  BinRegReg: { code: 154, operands: ["reg", "reg", "binop"], pop: 0, push: 1, stack: "-> rA op rB (LoadReg rA, LoadReg rB, op)" },
  Eq: { code: 82, operands: [], pop: 2, push: 1, stack: "l r -> l == r" },
  Ne: { code: 83, operands: [], pop: 2, push: 1, stack: "l r -> l != r" },
  StrictEq: { code: 84, operands: [], pop: 2, push: 1, stack: "l r -> l === r" },
  StrictNe: { code: 85, operands: [], pop: 2, push: 1, stack: "l r -> l !== r" },
  Lt: { code: 86, operands: [], pop: 2, push: 1, stack: "l r -> l < r" },
  Gt: { code: 87, operands: [], pop: 2, push: 1, stack: "l r -> l > r" },
  Le: { code: 88, operands: [], pop: 2, push: 1, stack: "l r -> l <= r" },
  Ge: { code: 89, operands: [], pop: 2, push: 1, stack: "l r -> l >= r" },
  Neg: { code: 90, operands: [], pop: 1, push: 1, stack: "v -> -v" },
  Plus: { code: 91, operands: [], pop: 1, push: 1, stack: "v -> +v" },
  BitNot: { code: 92, operands: [], pop: 1, push: 1, stack: "v -> ~v" },
  Not: { code: 93, operands: [], pop: 1, push: 1, stack: "v -> !v" },
  TypeOf: { code: 94, operands: [], pop: 1, push: 1, stack: "v -> typeof v" },
  Inc: { code: 95, operands: [], pop: 1, push: 1, stack: "v -> ToNumeric(v) + 1" },
  Dec: { code: 96, operands: [], pop: 1, push: 1, stack: "v -> ToNumeric(v) - 1" },
  ToNumeric: { code: 97, operands: [], pop: 1, push: 1, stack: "v -> ToNumeric(v)" },
  ToString: { code: 98, operands: [], pop: 1, push: 1, stack: "v -> ToString(v)" },

  // Control
  Jump: { code: 99, operands: ["label"], pop: 0, push: 0, end: true, stack: "->" },
  JumpIfTrue: { code: 100, operands: ["label"], pop: 1, push: 0, branch: 0, stack: "v ->" },
  JumpIfFalse: { code: 101, operands: ["label"], pop: 1, push: 0, branch: 0, stack: "v ->" },
  JumpIfTruePeek: { code: 102, operands: ["label"], pop: 1, push: 1, branch: 1, stack: "v -> v" },
  JumpIfFalsePeek: { code: 103, operands: ["label"], pop: 1, push: 1, branch: 1, stack: "v -> v" },
  JumpIfNullishPeek: { code: 104, operands: ["label"], pop: 1, push: 1, branch: 1, stack: "v -> v" },
  JumpIfNotNullishPeek: { code: 105, operands: ["label"], pop: 1, push: 1, branch: 1, stack: "v -> v" },
  JumpIfNotUndefinedPeek: { code: 106, operands: ["label"], pop: 1, push: 1, branch: 1, stack: "v -> v" },
  Throw: { code: 107, operands: [], pop: 1, push: 0, end: true, stack: "v -> (throws v)" },
  Return: { code: 108, operands: [], pop: 1, push: 0, end: true, stack: "v -> (returns v)" },
  ThrowError: { code: 109, operands: ["type", "const"], pop: 0, push: 0, end: true, stack: "-> (throws a new error)" },
  DerivedCtorReturn: { code: 110, operands: [], pop: 2, push: 1, stack: "v this -> result of a derived constructor" },

  // Calls
  Call: { code: 111, operands: ["count", "const"], pop: (ops) => argc0(ops) + 2, push: 1, stack: "this f a1..an -> result" },
  CallSpread: { code: 112, operands: ["const"], pop: 3, push: 1, stack: "this f args -> result" },
  New: { code: 113, operands: ["count", "const"], pop: (ops) => argc0(ops) + 1, push: 1, stack: "C a1..an -> object" },
  NewSpread: { code: 114, operands: ["const"], pop: 2, push: 1, stack: "C args -> object" },

  // Functions and classes
  Closure: { code: 115, operands: ["code"], pop: 0, push: 1, stack: "-> function" },
  ClassCreate: { code: 116, operands: ["code", "flags"], pop: 2, push: 2, stack: "superclass protoParent -> constructor prototype" },
  ClassField: { code: 117, operands: [], pop: 3, push: 1, stack: "constructor key initializer -> constructor" },
  ClassPrivateMethod: { code: 118, operands: ["flags"], pop: 3, push: 1, stack: "constructor #name fn -> constructor" },
  NewPrivateName: { code: 119, operands: ["name"], pop: 0, push: 1, stack: "-> #name" },
  InitInstanceElements: { code: 120, operands: [], pop: 2, push: 0, stack: "constructor this ->" },

  // Literals needing the realm
  TemplateObject: { code: 121, operands: ["const"], pop: 0, push: 1, stack: "-> template strings array" },
  RegExp: { code: 122, operands: ["const", "const"], pop: 0, push: 1, stack: "-> new RegExp" },

  // Iteration
  GetIterator: { code: 123, operands: ["const", "flags"], pop: 1, push: 1, stack: "iterable -> iterator record (const: not-iterable message; flags 1: for-of/destructuring)" },
  GetAsyncIterator: { code: 124, operands: ["const", "flags"], pop: 1, push: 1, stack: "iterable -> async iterator record" },
  IterStep: { code: 125, operands: [], pop: 1, push: 1, stack: "iter -> value (undefined once done)" },
  IterRest: { code: 126, operands: [], pop: 1, push: 1, stack: "iter -> array of the rest" },
  IterClose: { code: 127, operands: [], pop: 1, push: 0, stack: "iter -> (IteratorClose unless done)" },
  IterCloseForThrow: { code: 128, operands: [], pop: 2, push: 0, end: true, stack: "exception iter -> (close quietly, rethrow)" },
  ForOfStep: { code: 129, operands: ["reg"], pop: 0, push: 1, stack: "-> value, or done (JumpIfDone follows)" },
  IterNextCall: { code: 130, operands: [], pop: 1, push: 1, stack: "iter -> next() result" },
  IterResultValue: { code: 131, operands: [], pop: 1, push: 1, stack: "result -> value, or done (JumpIfDone follows)" },
  AsyncIterReturn: { code: 132, operands: [], pop: 1, push: 1, stack: "iter -> return() result, or done if none" },
  CheckObject: { code: 133, operands: [], pop: 1, push: 1, stack: "v -> v (TypeError unless object)" },
  ForInPrepare: { code: 134, operands: [], pop: 1, push: 1, stack: "obj -> for-in iterator" },
  ForInStep: { code: 135, operands: ["reg", "label"], pop: 0, push: 1, branch: 0, stack: "-> key (jumps when done)" },

  // Generators and async functions
  GeneratorStart: { code: 136, operands: [], pop: 0, push: 0, stack: "-> (suspends; the caller gets the generator)" },
  Yield: { code: 137, operands: ["flags"], pop: 1, push: 2, stack: "v -> resumeValue resumeMode" },
  ResumeDispatch: { code: 138, operands: ["label"], pop: 2, push: 1, branch: 1, stack: "value mode -> value" },
  AwaitPrepare: { code: 139, operands: [], pop: 1, push: 1, stack: "v -> promise" },
  Await: { code: 140, operands: [], pop: 1, push: 1, stack: "promise -> settled value (suspends)" },
  AsyncGenCompleteYield: { code: 141, operands: [], pop: 1, push: 1, stack: "v -> undefined (settles the front request)" },
  YieldStarCall: { code: 142, operands: [], pop: 3, push: 1, stack: "iter received mode -> inner result, or done (return, no method)" },
  SetProgramCompletion: { code: 143, operands: [], pop: 1, push: 0, stack: "v -> (the program's completion value)" },
  CheckSuperOnce: { code: 144, operands: [], pop: 1, push: 0, stack: "thisBinding -> (ReferenceError unless uninitialized)" },
  SetHomeObject: { code: 145, operands: [], pop: 2, push: 1, stack: "fn home -> fn" },
  CheckClassHeritage: { code: 146, operands: [], pop: 1, push: 1, stack: "v -> v (TypeError unless constructor or null)" },

  // Explicit resource management (runtime/dispose.ts)
  NewDisposeCapability: { code: 147, operands: [], pop: 0, push: 1, stack: "-> capability" },
  AddDisposable: { code: 148, operands: ["flags"], pop: 2, push: 1, stack: "v capability -> v (TypeError unless disposable; flags 1: await using)" },
  DisposeBegin: { code: 149, operands: [], pop: 3, push: 0, stack: "capability thrown value -> (the completion the scope is left with)" },
  DisposeNext: { code: 150, operands: [], pop: 1, push: 1, stack: "capability -> value to await, or done (JumpIfDone follows)" },
  DisposeRecordError: { code: 151, operands: [], pop: 2, push: 0, stack: "capability error ->" },
  DisposeEnd: { code: 152, operands: [], pop: 1, push: 0, stack: "capability -> (throws what disposal threw)" },
} as const satisfies Record<string, OpInfo>

export type OpName = keyof typeof OPCODES
type OpCodeOf = { readonly [K in OpName]: (typeof OPCODES)[K]["code"] }

/** Opcode numbers by name, as literal types so the dispatch switch can be checked for exhaustiveness. */
export const Op: OpCodeOf = Object.fromEntries(Object.entries(OPCODES).map(([k, v]) => [k, v.code])) as unknown as OpCodeOf
export type Opcode = OpCodeOf[OpName]

/** Rows by opcode number. */
export const OP_INFO: ReadonlyArray<OpInfo & { readonly name: OpName }> = (() => {
  const rows: Array<OpInfo & { readonly name: OpName }> = []
  for (const [name, info] of Object.entries(OPCODES) as Array<[OpName, OpInfo]>) {
    if (rows[info.code] !== undefined) throw new Error(`codemode bug: opcode ${info.code} defined twice`)
    rows[info.code] = { ...info, name }
  }
  for (let i = 0; i < rows.length; i++) if (rows[i] === undefined) throw new Error(`codemode bug: opcode ${i} missing`)
  return rows
})()

/** Words an instruction occupies (opcode + operands). */
export const instructionLength = (op: number): number => 1 + (OP_INFO[op] as OpInfo).operands.length

/** For exhaustive switches: a missing case makes the argument's type non-`never`. */
export const unreachable = (x: never): never => {
  throw new Error(`codemode bug: unexpected ${String(x)}`)
}

/** Error types for ThrowError. */
export const ErrorTypeCode = { TypeError: 0, ReferenceError: 1, SyntaxError: 2, RangeError: 3 } as const

/** DefineMethod / ClassPrivateMethod flags: the kind in the low bits, enumerability above. */
export const MethodKind = { Method: 0, Getter: 1, Setter: 2 } as const
export const METHOD_ENUMERABLE = 4

/** Resumption modes pushed by Yield (and given by the generatorResume request). */
export const ResumeMode = { Next: 0, Throw: 1, Return: 2 } as const
