/**
 * Expressions (https://tc39.es/ecma262/#sec-ecmascript-language-expressions): each production compiles to code
 * that leaves exactly one value on the operand stack. Property references, calls, optional chains, templates and
 * literals are here; destructuring and assignment targets in patterns.ts; functions and classes in functions.ts.
 * Left-nested chains of binary and logical operators are compiled iteratively so that very long chains do not
 * recurse on the host stack.
 */
import type { ESTree } from "meriyah"
import { METHOD_ENUMERABLE, MethodKind, Op, type Opcode, ResumeMode, unreachable } from "../bytecode/opcodes.ts"
import { recordKeys, staticKey } from "../language/static-semantics.ts"
import { calleeText, iterableSite, spreadArgumentSite, yieldStarSite } from "../language/call-printer.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import { MAX_SHAPE_KEYS } from "../runtime/property-store.ts"
import type { Label } from "./assembler.ts"
import type { FunctionCompiler } from "./context.ts"
import { compileClass, compileFunctionExpression, isAnonymousFunctionDefinition } from "./functions.ts"
import { compileAssignment, compileUpdate } from "./patterns.ts"

type Expr = ESTree.Expression | ESTree.PrivateIdentifier | ESTree.Super | ESTree.SpreadElement

export function compileExpression(fc: FunctionCompiler, node: Expr): void {
  fc.enter(node)
  try {
    expression(fc, node)
  } finally {
    fc.leave()
  }
}

/** Compiles an expression whose value is not used: assignments and updates skip keeping their result. */
export function compileEffect(fc: FunctionCompiler, node: ESTree.Expression): void {
  if (node.type === "UpdateExpression" && node.argument.type === "Identifier") {
    fc.enter(node)
    try {
      const res = fc.resolution(node.argument)
      fc.load(res, node.argument.name)
      fc.emit(node.operator === "++" ? Op.Inc : Op.Dec)
      fc.store(res, node.argument.name, false)
    } finally {
      fc.leave()
    }
    return
  }
  if (node.type === "UpdateExpression" && !node.prefix) {
    // `o.n++` for its effect is `++o.n`: both convert the old value once, and only the result, unused, differs.
    // The postfix form would keep the old value under the reference's parts (ToNumeric, Dup, Rot, Pop).
    fc.enter(node)
    try {
      compileUpdate(fc, node, true)
    } finally {
      fc.leave()
    }
    fc.emit(Op.Pop)
    return
  }
  if (node.type === "AssignmentExpression" && node.left.type === "Identifier" && !["&&=", "||=", "??="].includes(node.operator)) {
    fc.enter(node)
    try {
      const res = fc.resolution(node.left)
      if (node.operator === "=") compileNamedExpression(fc, node.right, node.left.name)
      else {
        fc.load(res, node.left.name)
        compileExpression(fc, node.right)
        fc.asm.at(node.start)
        fc.emit(binaryOpcode(node.operator.slice(0, -1)))
      }
      fc.store(res, node.left.name, false)
    } finally {
      fc.leave()
    }
    return
  }
  if (node.type === "SequenceExpression") {
    for (const e of node.expressions) compileEffect(fc, e)
    return
  }
  compileExpression(fc, node)
  fc.emit(Op.Pop)
}

/** Evaluates a condition and jumps to `target` when it is falsy: `!x` as x and a jump when truthy, without the Not. */
export function compileJumpIfFalse(fc: FunctionCompiler, test: ESTree.Expression, target: Label): void {
  let negated = false
  while (test.type === "UnaryExpression" && test.operator === "!") {
    negated = !negated
    test = test.argument
  }
  compileExpression(fc, test)
  fc.jump(negated ? Op.JumpIfTrue : Op.JumpIfFalse, target)
}

/** NamedEvaluation: an anonymous function or class gets `name`. */
export function compileNamedExpression(fc: FunctionCompiler, node: ESTree.Expression, name: string): void {
  if (!isAnonymousFunctionDefinition(node)) return compileExpression(fc, node)
  fc.enter(node)
  try {
    if (node.type === "ClassExpression") compileClass(fc, node, name)
    else compileFunctionExpression(fc, node as ESTree.FunctionExpression | ESTree.ArrowFunctionExpression, name)
  } finally {
    fc.leave()
  }
}

const BINARY: Partial<Record<string, Opcode>> = {
  "+": Op.Add,
  "-": Op.Sub,
  "*": Op.Mul,
  "/": Op.Div,
  "%": Op.Mod,
  "**": Op.Exp,
  "<<": Op.Shl,
  ">>": Op.Sar,
  ">>>": Op.Shr,
  "&": Op.BitAnd,
  "|": Op.BitOr,
  "^": Op.BitXor,
  "==": Op.Eq,
  "!=": Op.Ne,
  "===": Op.StrictEq,
  "!==": Op.StrictNe,
  "<": Op.Lt,
  ">": Op.Gt,
  "<=": Op.Le,
  ">=": Op.Ge,
  in: Op.In,
  instanceof: Op.Instanceof,
}

export const binaryOpcode = (operator: string): Opcode => {
  const op = BINARY[operator]
  if (op === undefined) throw new Error(`codemode bug: unknown operator ${operator}`)
  return op
}

function expression(fc: FunctionCompiler, node: Expr): void {
  switch (node.type) {
    case "Literal":
      return Literal(fc, node)
    case "Identifier":
      return IdentifierReference(fc, node)
    case "ThisExpression":
      fc.load(fc.resolution(node), "this")
      return
    case "TemplateLiteral":
      return TemplateLiteral(fc, node)
    case "TaggedTemplateExpression":
      return TaggedTemplate(fc, node)
    case "ArrayExpression":
      return ArrayLiteral(fc, node)
    case "ObjectExpression":
      return ObjectLiteral(fc, node)
    case "FunctionExpression":
    case "ArrowFunctionExpression":
      return compileFunctionExpression(fc, node, node.type === "FunctionExpression" && node.id !== null ? node.id.name : "")
    case "ClassExpression":
      return compileClass(fc, node, node.id?.name ?? "")
    case "MemberExpression":
      return MemberExpression(fc, node, undefined)
    case "ChainExpression":
      return OptionalChain(fc, node)
    case "CallExpression":
      return CallExpression(fc, node, undefined)
    case "NewExpression":
      return NewExpression(fc, node)
    case "UpdateExpression":
      return compileUpdate(fc, node)
    case "UnaryExpression":
      return UnaryExpression(fc, node)
    case "BinaryExpression":
    case "LogicalExpression":
      return BinaryChain(fc, node)
    case "ConditionalExpression": {
      const otherwise = fc.label()
      const end = fc.label()
      compileJumpIfFalse(fc, node.test, otherwise)
      compileExpression(fc, node.consequent)
      fc.jump(Op.Jump, end)
      fc.place(otherwise)
      compileExpression(fc, node.alternate)
      fc.place(end)
      return
    }
    case "AssignmentExpression":
      return compileAssignment(fc, node)
    case "SequenceExpression":
      node.expressions.forEach((e, i) => {
        if (i < node.expressions.length - 1) compileEffect(fc, e)
        else compileExpression(fc, e)
      })
      return
    case "AwaitExpression":
      compileExpression(fc, node.argument)
      fc.emit(Op.AwaitPrepare)
      fc.emit(Op.Await)
      return
    case "YieldExpression":
      return YieldExpression(fc, node)
    case "MetaProperty":
      fc.load(fc.resolution(node), "new.target")
      return
    case "PrivateIdentifier":
    case "Super":
    case "SpreadElement":
    case "ImportExpression":
    case "JSXElement":
    case "JSXFragment":
      throw new Error(`codemode bug: ${node.type} in expression position`)
    default:
      return unreachable(node)
  }
}

function Literal(fc: FunctionCompiler, node: ESTree.Literal): void {
  if ("regex" in node && node.regex !== undefined) {
    fc.emit(Op.RegExp, fc.asm.constant(node.regex.pattern), fc.asm.constant(node.regex.flags))
    return
  }
  if ("bigint" in node && typeof node.bigint === "string") {
    fc.emit(Op.Const, fc.asm.constant(BigInt(node.bigint)))
    return
  }
  const v = node.value as string | number | boolean | null
  if (v === null) fc.emit(Op.Null)
  else if (v === true) fc.emit(Op.True)
  else if (v === false) fc.emit(Op.False)
  else fc.pushConst(v)
}

function IdentifierReference(fc: FunctionCompiler, node: ESTree.Identifier): void {
  const res = fc.resolution(node)
  if (res.binding === undefined) {
    // These globals are non-writable and non-configurable.
    if (node.name === "undefined") return fc.emit(Op.Undefined)
    if (node.name === "NaN") return fc.pushConst(NaN)
    if (node.name === "Infinity") return fc.pushConst(Infinity)
  }
  fc.load(res, node.name)
}

function TemplateLiteral(fc: FunctionCompiler, node: ESTree.TemplateLiteral): void {
  fc.pushConst((node.quasis[0] as ESTree.TemplateElement).value.cooked ?? "")
  node.expressions.forEach((e, i) => {
    compileExpression(fc, e)
    fc.emit(Op.ToString)
    fc.emit(Op.Add)
    const tail = (node.quasis[i + 1] as ESTree.TemplateElement).value.cooked ?? ""
    if (tail !== "") {
      fc.pushConst(tail)
      fc.emit(Op.Add)
    }
  })
}

function TaggedTemplate(fc: FunctionCompiler, node: ESTree.TaggedTemplateExpression): void {
  calleeAndThis(fc, node.tag as Expr, undefined)
  const site = fc.asm.constant({
    kind: "template",
    cooked: node.quasi.quasis.map((q) => q.value.cooked ?? undefined),
    raw: node.quasi.quasis.map((q) => q.value.raw),
  })
  fc.emit(Op.TemplateObject, site)
  for (const e of node.quasi.expressions) compileExpression(fc, e)
  fc.emit(Op.Call, node.quasi.expressions.length + 1, fc.asm.constant(calleeText(node.tag)))
}

function ArrayLiteral(fc: FunctionCompiler, node: ESTree.ArrayExpression): void {
  fc.emit(Op.NewArray)
  for (const e of node.elements) {
    if (e === null) fc.emit(Op.ArrayPushHole)
    else if (e.type === "SpreadElement") {
      compileExpression(fc, e.argument)
      fc.emit(Op.ArraySpread, siteConstant(fc, iterableSite(e.argument)))
    } else {
      compileExpression(fc, e)
      fc.emit(Op.ArrayPush)
    }
  }
}


/** Pushes a property key: a constant, or a computed key converted with ToPropertyKey. */
export function compilePropertyKey(fc: FunctionCompiler, key: ESTree.Expression, computed: boolean): void {
  if (computed) {
    compileExpression(fc, key)
    fc.emit(Op.ToPropertyKey)
  } else {
    fc.emit(Op.Const, fc.asm.constant(staticKey(key)))
  }
}

function ObjectLiteral(fc: FunctionCompiler, node: ESTree.ObjectExpression): void {
  // The record's values wait on the operand stack: at most a shape's worth.
  const keys = recordKeys(node, MAX_SHAPE_KEYS)
  if (keys.length === 0) fc.emit(Op.NewObject)
  else {
    for (let i = 0; i < keys.length; i++) {
      const p = node.properties[i] as ESTree.Property
      fc.enter(p)
      try {
        compileNamedExpression(fc, p.value as ESTree.Expression, keys[i]!)
      } finally {
        fc.leave()
      }
    }
    fc.asm.at(node.start)
    fc.emit(Op.NewRecord, keys.length, fc.asm.constant({ kind: "record", keys }))
  }
  for (const p of node.properties.slice(keys.length)) {
    fc.enter(p)
    try {
      if (p.type === "SpreadElement") {
        compileExpression(fc, p.argument)
        fc.emit(Op.CopyDataProperties)
        continue
      }
      if (p.type !== "Property") throw new Error(`codemode bug: ${p.type} in an object literal`)
      if (p.kind === "get" || p.kind === "set" || p.method) {
        compilePropertyKey(fc, p.key, p.computed)
        const keyName = p.computed ? "" : staticKey(p.key)
        compileFunctionExpression(fc, p.value as ESTree.FunctionExpression, keyName, p)
        const kind = p.kind === "get" ? MethodKind.Getter : p.kind === "set" ? MethodKind.Setter : MethodKind.Method
        fc.emit(Op.DefineMethod, kind | METHOD_ENUMERABLE)
        continue
      }
      const value = p.value as ESTree.Expression
      if (!p.computed) {
        const name = staticKey(p.key)
        if (name === "__proto__" && !p.shorthand) {
          compileExpression(fc, value)
          fc.emit(Op.SetProto)
          continue
        }
        compileNamedExpression(fc, value, name)
        fc.emit(Op.DefineField, fc.name(name))
        continue
      }
      compilePropertyKey(fc, p.key, true)
      compileExpression(fc, value)
      if (isAnonymousFunctionDefinition(value)) fc.emit(Op.SetFunctionName)
      fc.emit(Op.DefineElem)
    } finally {
      fc.leave()
    }
  }
}

// --- Property access and calls ----------------------------------------------------------------------------------

/** Collects the short-circuit jumps of an optional chain: each with the stack depth to drop back to. */
interface ChainContext {
  readonly exits: Array<{ readonly label: ReturnType<FunctionCompiler["label"]>; readonly extra: number }>
  readonly baseDepth: number
}

function OptionalChain(fc: FunctionCompiler, node: ESTree.ChainExpression): void {
  const chain: ChainContext = { exits: [], baseDepth: fc.asm.depth }
  const inner = node.expression
  if (inner.type === "CallExpression") CallExpression(fc, inner, chain)
  else MemberExpression(fc, inner, chain)
  closeChain(fc, chain)
}

/** Ends a chain: a short circuit leaves `count` undefineds (1 for a value, 2 for a callee and its `this`). */
function closeChain(fc: FunctionCompiler, chain: ChainContext, count = 1): void {
  if (chain.exits.length === 0) return
  const end = fc.label()
  fc.jump(Op.Jump, end)
  const nullish = fc.label()
  for (const exit of chain.exits) {
    fc.place(exit.label)
    for (let i = 0; i < exit.extra; i++) fc.emit(Op.Pop)
    fc.jump(Op.Jump, nullish)
  }
  fc.place(nullish)
  for (let i = 0; i < count; i++) fc.emit(Op.Undefined)
  fc.place(end)
}

/** After pushing a value that `?.` tests: jump out of the chain if it is nullish. */
function optionalCheck(fc: FunctionCompiler, chain: ChainContext | undefined): void {
  if (chain === undefined) throw new Error("codemode bug: optional link outside a chain")
  const label = fc.label()
  // At the exit everything pushed since the chain began is dropped (the tested value included).
  chain.exits.push({ label, extra: fc.asm.depth - chain.baseDepth })
  fc.jump(Op.JumpIfNullishPeek, label)
}

/** Compiles an operand of a member or call inside a chain (continuing the same chain). */
function chainOperand(fc: FunctionCompiler, node: Expr, chain: ChainContext | undefined): void {
  if (chain !== undefined && node.type === "MemberExpression") return withNode(fc, node, () => MemberExpression(fc, node, chain))
  if (chain !== undefined && node.type === "CallExpression") return withNode(fc, node, () => CallExpression(fc, node, chain))
  compileExpression(fc, node)
}

function withNode(fc: FunctionCompiler, node: ESTree.Node, f: () => void): void {
  fc.enter(node)
  try {
    f()
  } finally {
    fc.leave()
  }
}

function MemberExpression(fc: FunctionCompiler, node: ESTree.MemberExpression, chain: ChainContext | undefined): void {
  if (node.object.type === "Super") {
    superBase(fc, node.object)
    if (node.computed) {
      compileExpression(fc, node.property as ESTree.Expression)
      fc.emit(Op.ToPropertyKey)
      fc.emit(Op.GetSuperElem)
    } else fc.emit(Op.GetSuperField, fc.name(staticKey(node.property)))
    return
  }
  const reg = chain === undefined && !node.computed && node.property.type === "Identifier" ? plainRegister(fc, node.object) : undefined
  if (reg !== undefined) {
    // `r.price` on a parameter or local: one instruction instead of the load and the read.
    fc.asm.at(node.property.start)
    fc.emit(Op.GetFieldReg, reg, fc.name((node.property as ESTree.Identifier).name))
    return
  }
  chainOperand(fc, node.object, chain)
  if (node.optional) optionalCheck(fc, chain)
  fc.asm.at(node.property.start)
  if (node.property.type === "PrivateIdentifier") {
    fc.load(fc.resolution(node.property), `#${node.property.name}`)
    fc.emit(Op.GetPrivate)
  } else if (node.computed) {
    compileExpression(fc, node.property)
    fc.emit(Op.GetElem)
  } else {
    fc.emit(Op.GetField, fc.name((node.property as ESTree.Identifier).name))
  }
}

/** `super.x` base: pushes the active function (for its home object) and `this`. */
export function superBase(fc: FunctionCompiler, node: ESTree.Super): void {
  const refs = fc.program.analysis.superReferences.get(node)
  if (refs === undefined) throw new Error("codemode bug: unresolved super")
  fc.load(refs.func, "%function-object")
  fc.load(refs.thisValue, "this")
}

/** Pushes `this f` for a call of `callee`. */
function calleeAndThis(fc: FunctionCompiler, callee: Expr, chain: ChainContext | undefined): void {
  if (callee.type === "ChainExpression" && callee.expression.type === "MemberExpression" && callee.expression.object.type !== "Super") {
    // `(a?.b)()` still calls with `this` = a.
    const inner: ChainContext = { exits: [], baseDepth: fc.asm.depth }
    calleeAndThis(fc, callee.expression, inner)
    closeChain(fc, inner, 2)
    return
  }
  if (callee.type === "MemberExpression") {
    fc.enter(callee)
    try {
      if (callee.object.type === "Super") {
        const refs = fc.program.analysis.superReferences.get(callee.object)!
        fc.load(refs.thisValue, "this")
        MemberExpression(fc, callee, undefined)
        return
      }
      chainOperand(fc, callee.object, chain)
      if (callee.optional) optionalCheck(fc, chain)
      fc.asm.at(callee.property.start)
      if (callee.property.type === "PrivateIdentifier") {
        fc.emit(Op.Dup)
        fc.load(fc.resolution(callee.property), `#${callee.property.name}`)
        fc.emit(Op.GetPrivate)
      } else if (callee.computed) {
        compileExpression(fc, callee.property)
        fc.emit(Op.GetElemForCall)
      } else {
        fc.emit(Op.GetFieldForCall, fc.name((callee.property as ESTree.Identifier).name))
      }
    } finally {
      fc.leave()
    }
    return
  }
  fc.emit(Op.Undefined)
  chainOperand(fc, callee, chain)
}

function CallExpression(fc: FunctionCompiler, node: ESTree.CallExpression, chain: ChainContext | undefined): void {
  if (node.callee.type === "Super") return SuperCall(fc, node)
  calleeAndThis(fc, node.callee, chain)
  if (node.optional) optionalCheck(fc, chain)
  fc.asm.at(node.start)
  const text = fc.asm.constant(calleeText(node.callee))
  if (hasSpread(node.arguments)) {
    argumentsArray(fc, node.arguments)
    fc.asm.at(node.start)
    fc.emit(Op.CallSpread, text)
  } else {
    for (const a of node.arguments) compileExpression(fc, a)
    fc.asm.at(node.start)
    fc.emit(Op.Call, node.arguments.length, text)
  }
}

function NewExpression(fc: FunctionCompiler, node: ESTree.NewExpression): void {
  compileExpression(fc, node.callee as Expr)
  const text = fc.asm.constant(calleeText(node.callee as Expr))
  if (hasSpread(node.arguments)) {
    argumentsArray(fc, node.arguments)
    fc.asm.at(node.start)
    fc.emit(Op.NewSpread, text)
  } else {
    for (const a of node.arguments) compileExpression(fc, a)
    fc.asm.at(node.start)
    fc.emit(Op.New, node.arguments.length, text)
  }
}

function SuperCall(fc: FunctionCompiler, node: ESTree.CallExpression): void {
  const refs = fc.program.analysis.superReferences.get(node.callee)
  if (refs === undefined) throw new Error("codemode bug: unresolved super()")
  fc.load(refs.func, "%function-object")
  fc.load(refs.newTarget, "new.target")
  if (hasSpread(node.arguments)) {
    argumentsArray(fc, node.arguments)
    fc.asm.at(node.start)
    fc.emit(Op.SuperCallSpread)
  } else {
    for (const a of node.arguments) compileExpression(fc, a)
    fc.asm.at(node.start)
    fc.emit(Op.SuperCall, node.arguments.length)
  }
  bindThisAfterSuper(fc, refs)
}

/** After `super(...)` pushed the new object: BindThisValue, then InitializeInstanceElements. Leaves `this`. */
export function bindThisAfterSuper(
  fc: FunctionCompiler,
  refs: { readonly func: import("../language/scope.ts").Resolution; readonly thisValue: import("../language/scope.ts").Resolution },
): void {
  const thisBinding = refs.thisValue.binding
  if (thisBinding === undefined) throw new Error("codemode bug: super() without a this binding")
  fc.emit(Op.Dup)
  fc.loadBinding(thisBinding, false)
  fc.emit(Op.CheckSuperOnce)
  fc.storeBinding(thisBinding, false)
  fc.emit(Op.Dup)
  fc.load(refs.func, "%function-object")
  fc.emit(Op.Swap)
  fc.emit(Op.InitInstanceElements)
}

const hasSpread = (args: ReadonlyArray<ESTree.Expression | ESTree.SpreadElement>): boolean => args.some((a) => a.type === "SpreadElement")

function argumentsArray(fc: FunctionCompiler, args: ReadonlyArray<ESTree.Expression | ESTree.SpreadElement>): void {
  fc.emit(Op.NewArray)
  for (const a of args) {
    if (a.type === "SpreadElement") {
      compileExpression(fc, a.argument)
      fc.emit(Op.ArraySpread, siteConstant(fc, spreadArgumentSite(args, a)))
    } else {
      compileExpression(fc, a)
      fc.emit(Op.ArrayPush)
    }
  }
}

/** The constant of a site for V8's "x is not iterable" messages (-1: none, the message describing the value). */
export const siteConstant = (fc: FunctionCompiler, site: NotIterableSite | undefined): number => (site === undefined ? -1 : fc.asm.constant(site))


// --- Operators ----------------------------------------------------------------------------------------------------

function UnaryExpression(fc: FunctionCompiler, node: ESTree.UnaryExpression): void {
  const arg = node.argument
  switch (node.operator) {
    case "typeof":
      if (arg.type === "Identifier") {
        const res = fc.resolution(arg)
        if (res.binding === undefined) fc.emit(Op.LoadGlobalOrUndefined, fc.name(arg.name))
        else fc.load(res, arg.name)
      } else compileExpression(fc, arg)
      fc.emit(Op.TypeOf)
      return
    case "delete":
      return DeleteExpression(fc, arg)
    case "void":
      compileExpression(fc, arg)
      fc.emit(Op.Pop)
      fc.emit(Op.Undefined)
      return
    case "!":
      compileExpression(fc, arg)
      fc.emit(Op.Not)
      return
    case "-":
      if (arg.type === "Literal" && typeof arg.value === "number") return fc.pushConst(-arg.value)
      compileExpression(fc, arg)
      fc.emit(Op.Neg)
      return
    case "+":
      compileExpression(fc, arg)
      fc.emit(Op.Plus)
      return
    case "~":
      compileExpression(fc, arg)
      fc.emit(Op.BitNot)
      return
    default:
      return unreachable(node.operator)
  }
}

function DeleteExpression(fc: FunctionCompiler, arg: ESTree.Expression): void {
  const target = arg.type === "ChainExpression" ? arg.expression : arg
  if (target.type === "MemberExpression") {
    if (target.object.type === "Super") {
      fc.throwError("ReferenceError", "Unsupported reference to 'super'", fc.asm.depth + 1)
      return
    }
    const chain: ChainContext | undefined = arg.type === "ChainExpression" ? { exits: [], baseDepth: fc.asm.depth } : undefined
    chainOperand(fc, target.object, chain)
    if (target.optional) optionalCheck(fc, chain)
    if (target.computed) compileExpression(fc, target.property as ESTree.Expression)
    else fc.pushConst(staticKey(target.property))
    fc.emit(Op.Delete)
    if (chain !== undefined && chain.exits.length > 0) {
      // A short-circuited `delete a?.b` is true.
      const end = fc.label()
      fc.jump(Op.Jump, end)
      for (const exit of chain.exits) {
        fc.place(exit.label)
        for (let i = 0; i < exit.extra; i++) fc.emit(Op.Pop)
        fc.emit(Op.True)
        fc.jump(Op.Jump, end)
      }
      fc.place(end)
    }
    return
  }
  if (target.type === "Identifier") {
    const res = fc.resolution(target)
    if (res.binding !== undefined) fc.emit(Op.False)
    else {
      fc.emit(Op.LoadGlobalObject)
      fc.pushConst(target.name)
      fc.emit(Op.Delete)
    }
    return
  }
  compileExpression(fc, target)
  fc.emit(Op.Pop)
  fc.emit(Op.True)
}

/** The register an expression is read from by a plain LoadReg (a register binding without a TDZ check), else undefined. */
const plainRegister = (fc: FunctionCompiler, node: Expr): number | undefined => {
  if (node.type !== "Identifier") return undefined
  const res = fc.resolution(node)
  if (res.binding === undefined || res.checked) return undefined
  const st = fc.storageOf(res.binding)
  return st.kind === "reg" ? st.reg : undefined
}

/** Binary and logical operators; the left-nested spine is walked iteratively. */
function BinaryChain(fc: FunctionCompiler, node: ESTree.BinaryExpression | ESTree.LogicalExpression): void {
  const links: Array<ESTree.BinaryExpression | ESTree.LogicalExpression> = []
  let left: Expr = node
  while ((left.type === "BinaryExpression" || left.type === "LogicalExpression") && !(left.type === "BinaryExpression" && left.left.type === "PrivateIdentifier")) {
    links.push(left)
    left = left.left as Expr
  }
  let i = links.length - 1
  // Empty for `#x in obj` alone.
  const first = links[i]
  const arithmetic = first?.type === "BinaryExpression" ? BINARY[first.operator] : undefined
  const l = arithmetic !== undefined && arithmetic >= Op.Add && arithmetic <= Op.BitXor ? plainRegister(fc, left) : undefined
  const r = l !== undefined ? plainRegister(fc, (first as ESTree.BinaryExpression).right) : undefined
  if (r !== undefined) {
    // `a - b`, both operands plain registers: one instruction instead of two loads and the operator.
    fc.asm.at(first?.start)
    fc.emit(Op.BinRegReg, l as number, r, arithmetic as Opcode)
    i--
  } else if (left.type === "BinaryExpression") {
    // `#x in obj` at the bottom of the chain.
    compileExpression(fc, left.right)
    fc.load(fc.resolution(left.left), `#${(left.left as ESTree.PrivateIdentifier).name}`)
    fc.emit(Op.PrivateIn)
  } else {
    compileExpression(fc, left)
  }
  for (; i >= 0; i--) {
    const link = links[i] as ESTree.BinaryExpression | ESTree.LogicalExpression
    fc.asm.at(link.start)
    if (link.type === "LogicalExpression") {
      const end = fc.label()
      fc.jump(link.operator === "&&" ? Op.JumpIfFalsePeek : link.operator === "||" ? Op.JumpIfTruePeek : Op.JumpIfNotNullishPeek, end)
      fc.emit(Op.Pop)
      compileExpression(fc, link.right)
      fc.place(end)
    } else {
      compileExpression(fc, link.right)
      fc.asm.at(link.start)
      fc.emit(binaryOpcode(link.operator))
    }
  }
}

// --- Generators -----------------------------------------------------------------------------------------------

function YieldExpression(fc: FunctionCompiler, node: ESTree.YieldExpression): void {
  if (node.delegate) return YieldStar(fc, node.argument as ESTree.Expression)
  if (node.argument === null) fc.emit(Op.Undefined)
  else compileExpression(fc, node.argument as ESTree.Expression)
  emitYield(fc, false)
}

/**
 * Yields the value on the stack and handles the resumption: `next` leaves the sent value, `throw` throws it,
 * `return` returns it (through any finally blocks; awaited first in async generators).
 */
export function emitYield(fc: FunctionCompiler, raw: boolean): void {
  if (fc.functionKind === "asyncGenerator") {
    if (!raw) {
      fc.emit(Op.AwaitPrepare)
      fc.emit(Op.Await)
    }
    fc.emit(Op.AsyncGenCompleteYield)
  }
  fc.emit(Op.Yield, raw ? 1 : 0)
  const onReturn = fc.label()
  const after = fc.label()
  fc.jump(Op.ResumeDispatch, onReturn)
  fc.jump(Op.Jump, after)
  fc.place(onReturn)
  dropOperandsUnder(fc)
  if (fc.functionKind === "asyncGenerator") {
    fc.emit(Op.AwaitPrepare)
    fc.emit(Op.Await)
  }
  fc.emitReturn()
  fc.place(after)
}

/**
 * A `return` resumption leaves the yield's enclosing expression half done (`o.p = yield`, `a + (yield)`): its
 * operands are dropped so that the return reaches a `finally` block with the empty stack of a statement boundary.
 */
function dropOperandsUnder(fc: FunctionCompiler): void {
  const extra = fc.asm.depth - 1
  if (extra <= 0) return
  const value = fc.allocReg()
  fc.emit(Op.StoreReg, value)
  for (let i = 0; i < extra; i++) fc.emit(Op.Pop)
  fc.emit(Op.LoadReg, value)
  fc.freeReg(value)
}

/** https://tc39.es/ecma262/#sec-generator-function-definitions-runtime-semantics-evaluation (yield*) */
function YieldStar(fc: FunctionCompiler, argument: ESTree.Expression): void {
  const isAsync = fc.functionKind === "asyncGenerator"
  compileExpression(fc, argument)
  // yield* forwards to the iterator's own methods: no array fast path (flags 0).
  fc.emit(isAsync ? Op.GetAsyncIterator : Op.GetIterator, siteConstant(fc, yieldStarSite(argument, isAsync)), 0)
  const iter = fc.allocReg()
  const received = fc.allocReg()
  const mode = fc.allocReg()
  fc.emit(Op.StoreReg, iter)
  fc.emit(Op.Undefined)
  fc.emit(Op.StoreReg, received)
  fc.emit(Op.Int, ResumeMode.Next)
  fc.emit(Op.StoreReg, mode)
  const loop = fc.label()
  const noReturnMethod = fc.label()
  const done = fc.label()
  const end = fc.label()
  fc.place(loop)
  fc.emit(Op.LoadReg, iter)
  fc.emit(Op.LoadReg, received)
  fc.emit(Op.LoadReg, mode)
  fc.emit(Op.YieldStarCall)
  fc.jump(Op.JumpIfDone, noReturnMethod)
  if (isAsync) {
    fc.emit(Op.AwaitPrepare)
    fc.emit(Op.Await)
  }
  fc.emit(Op.CheckObject)
  fc.emit(Op.Dup)
  fc.emit(Op.GetField, fc.name("done"))
  const notDone = fc.label()
  fc.jump(Op.JumpIfFalse, notDone)
  fc.emit(Op.GetField, fc.name("value"))
  fc.jump(Op.Jump, done)
  fc.place(notDone)
  if (isAsync) fc.emit(Op.GetField, fc.name("value"))
  if (isAsync) fc.emit(Op.AsyncGenCompleteYield)
  // Yield the inner result as is (sync) or its value (async); resumption goes back to the inner iterator.
  fc.emit(Op.Yield, 1)
  fc.emit(Op.StoreReg, mode)
  fc.emit(Op.StoreReg, received)
  if (isAsync) {
    // AsyncGeneratorUnwrapYieldResumption: a `return` resumption's value is awaited; if that throws, the inner
    // iterator receives the exception as a `throw`.
    const notReturn = fc.label()
    fc.emit(Op.LoadReg, mode)
    fc.emit(Op.Int, ResumeMode.Return)
    fc.emit(Op.StrictEq)
    fc.jump(Op.JumpIfFalse, notReturn)
    const depth = fc.asm.depth
    fc.emit(Op.LoadReg, received)
    const start = fc.asm.pc
    fc.emit(Op.AwaitPrepare)
    fc.emit(Op.Await)
    const stop = fc.asm.pc
    fc.emit(Op.StoreReg, received)
    fc.jump(Op.Jump, loop)
    const rejected = fc.label()
    fc.asm.handler(start, stop, rejected, depth)
    fc.place(rejected)
    fc.emit(Op.StoreReg, received)
    fc.emit(Op.Int, ResumeMode.Throw)
    fc.emit(Op.StoreReg, mode)
    fc.place(notReturn)
  }
  fc.jump(Op.Jump, loop)
  // The inner iterator finished: the value is the yield* result, unless we were forwarding a return.
  fc.place(done)
  fc.emit(Op.LoadReg, mode)
  fc.emit(Op.Int, ResumeMode.Return)
  fc.emit(Op.StrictEq)
  fc.jump(Op.JumpIfFalse, end)
  dropOperandsUnder(fc)
  fc.emitReturn()
  fc.place(noReturnMethod)
  if (isAsync) {
    // A throw resumption and the inner iterator has no `throw`: close it (awaiting `return`), then fail.
    const isReturn = fc.label()
    fc.emit(Op.LoadReg, mode)
    fc.emit(Op.Int, ResumeMode.Throw)
    fc.emit(Op.StrictEq)
    fc.jump(Op.JumpIfFalse, isReturn)
    fc.emit(Op.LoadReg, iter)
    fc.asyncIteratorClose()
    fc.throwError("TypeError", "The iterator does not provide a 'throw' method.", fc.asm.depth)
    fc.place(isReturn)
  }
  // A return resumption and the inner iterator has no `return`: return the received value.
  fc.emit(Op.LoadReg, received)
  dropOperandsUnder(fc)
  if (isAsync) {
    fc.emit(Op.AwaitPrepare)
    fc.emit(Op.Await)
  }
  fc.emitReturn()
  fc.place(end)
  fc.freeReg(iter)
  fc.freeReg(received)
  fc.freeReg(mode)
}

export { calleeText, staticKey }
