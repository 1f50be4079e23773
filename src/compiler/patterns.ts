/**
 * Assignment and destructuring (https://tc39.es/ecma262/#sec-assignment-operators,
 * https://tc39.es/ecma262/#sec-destructuring-binding-patterns, #sec-destructuring-assignment): simple and compound
 * assignment, logical assignment, `++`/`--`, and binding or assigning patterns in declarations, parameters,
 * catch clauses and for-in/of heads. Array patterns drive the iterator protocol and close the iterator when the
 * pattern completes early or throws. In destructuring assignment a member target's reference is evaluated before
 * the value is fetched, as the spec orders it.
 */
import type { ESTree } from "meriyah"
import { Op } from "../bytecode/opcodes.ts"
import { arrayPatternSite, destructureSite, patternPropertySite, type PatternSource } from "../language/call-printer.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import type { FunctionCompiler } from "./context.ts"
import { binaryOpcode, compileExpression, compileNamedExpression, siteConstant, staticKey, superBase } from "./expressions.ts"

type Target = ESTree.Pattern | ESTree.CallExpression | ESTree.Expression

// --- Member references ----------------------------------------------------------------------------------------

/**
 * Evaluates a member reference's parts; returns how many values it pushed. A computed key stays unconverted: the
 * get and the put each run ToPropertyKey, after the right-hand side, as V8 does (`o[k] += 1` converts k twice).
 */
function prepareMember(fc: FunctionCompiler, m: ESTree.MemberExpression): number {
  if (m.object.type === "Super") {
    superBase(fc, m.object)
    if (!m.computed) return 2
    compileExpression(fc, m.property as ESTree.Expression)
    return 3
  }
  compileExpression(fc, m.object as ESTree.Expression)
  if (m.property.type === "PrivateIdentifier") {
    fc.load(fc.resolution(m.property), `#${m.property.name}`)
    return 2
  }
  if (!m.computed) return 1
  compileExpression(fc, m.property)
  return 2
}

/** prepared -> value */
function getMember(fc: FunctionCompiler, m: ESTree.MemberExpression): void {
  if (m.object.type === "Super") {
    if (m.computed) fc.emit(Op.GetSuperElem)
    else fc.emit(Op.GetSuperField, fc.name(staticKey(m.property)))
  } else if (m.property.type === "PrivateIdentifier") fc.emit(Op.GetPrivate)
  else if (m.computed) fc.emit(Op.GetElem)
  else fc.emit(Op.GetField, fc.name((m.property as ESTree.Identifier).name))
}

/** prepared v -> v */
function storeMember(fc: FunctionCompiler, m: ESTree.MemberExpression): void {
  fc.asm.at(m.start)
  if (m.object.type === "Super") {
    if (m.computed) fc.emit(Op.PutSuperElem)
    else fc.emit(Op.PutSuperField, fc.name(staticKey(m.property)))
  } else if (m.property.type === "PrivateIdentifier") fc.emit(Op.PutPrivate)
  else if (m.computed) fc.emit(Op.PutElem)
  else fc.emit(Op.PutField, fc.name((m.property as ESTree.Identifier).name))
}

/** Duplicates the `n` prepared values. */
function dupPrepared(fc: FunctionCompiler, n: number): void {
  if (n === 1) fc.emit(Op.Dup)
  else if (n === 2) fc.emit(Op.Dup2)
  else {
    const regs = [fc.allocReg(), fc.allocReg(), fc.allocReg()]
    for (let i = 2; i >= 0; i--) fc.emit(Op.StoreReg, regs[i]!)
    for (let k = 0; k < 2; k++) for (let i = 0; i < 3; i++) fc.emit(Op.LoadReg, regs[i]!)
    for (const r of regs) fc.freeReg(r)
  }
}

/** prepared v -> v, dropping the prepared values. */
function dropPreparedBelow(fc: FunctionCompiler, n: number): void {
  if (n === 1) {
    fc.emit(Op.Swap)
    fc.emit(Op.Pop)
  } else if (n === 2) {
    fc.emit(Op.Rot3)
    fc.emit(Op.Pop)
    fc.emit(Op.Pop)
  } else {
    fc.emit(Op.Rot4)
    fc.emit(Op.Pop)
    fc.emit(Op.Pop)
    fc.emit(Op.Pop)
  }
}

/** prepared old -> old prepared old (postfix: keep the old value below). */
function tuckBelowPrepared(fc: FunctionCompiler, n: number): void {
  fc.emit(Op.Dup)
  if (n === 1) fc.emit(Op.Rot3)
  else if (n === 2) fc.emit(Op.Rot4)
  else {
    // func this key old old: park in registers and rebuild.
    const regs = [fc.allocReg(), fc.allocReg(), fc.allocReg(), fc.allocReg(), fc.allocReg()]
    for (let i = 4; i >= 0; i--) fc.emit(Op.StoreReg, regs[i]!)
    for (const i of [4, 0, 1, 2, 3]) fc.emit(Op.LoadReg, regs[i]!)
    for (const r of regs) fc.freeReg(r)
  }
}

// --- Assignment -----------------------------------------------------------------------------------------------

export function compileAssignment(fc: FunctionCompiler, node: ESTree.AssignmentExpression): void {
  const left = node.left
  const op = node.operator
  if (op === "=") {
    if (left.type === "Identifier") {
      compileNamedExpression(fc, node.right, left.name)
      fc.emit(Op.Dup)
      fc.store(fc.resolution(left), left.name, false)
    } else if (left.type === "MemberExpression") {
      prepareMember(fc, left)
      compileExpression(fc, node.right)
      storeMember(fc, left)
    } else {
      compileExpression(fc, node.right)
      fc.emit(Op.Dup)
      destructure(fc, left as ESTree.Pattern, false, node.right)
    }
    return
  }
  const logical = op === "&&=" || op === "||=" || op === "??="
  const jumpOp = op === "&&=" ? Op.JumpIfFalsePeek : op === "||=" ? Op.JumpIfTruePeek : Op.JumpIfNotNullishPeek
  if (left.type === "Identifier") {
    const res = fc.resolution(left)
    fc.load(res, left.name)
    if (logical) {
      const end = fc.label()
      fc.jump(jumpOp, end)
      fc.emit(Op.Pop)
      compileNamedExpression(fc, node.right, left.name)
      fc.emit(Op.Dup)
      fc.store(res, left.name, false)
      fc.place(end)
    } else {
      compileExpression(fc, node.right)
      fc.asm.at(node.start)
      fc.emit(binaryOpcode(op.slice(0, -1)))
      fc.emit(Op.Dup)
      fc.store(res, left.name, false)
    }
    return
  }
  if (left.type !== "MemberExpression") throw new Error(`codemode bug: compound assignment to ${left.type}`)
  const n = prepareMember(fc, left)
  dupPrepared(fc, n)
  getMember(fc, left)
  if (logical) {
    const short = fc.label()
    const end = fc.label()
    fc.jump(jumpOp, short)
    fc.emit(Op.Pop)
    compileExpression(fc, node.right)
    storeMember(fc, left)
    fc.jump(Op.Jump, end)
    fc.place(short)
    dropPreparedBelow(fc, n)
    fc.place(end)
    return
  }
  compileExpression(fc, node.right)
  fc.asm.at(node.start)
  fc.emit(binaryOpcode(op.slice(0, -1)))
  storeMember(fc, left)
}

/** `prefix`: compile `x++` as `++x` (its result unused). */
export function compileUpdate(fc: FunctionCompiler, node: ESTree.UpdateExpression, prefix = node.prefix): void {
  const inc = node.operator === "++" ? Op.Inc : Op.Dec
  const arg = node.argument
  if (arg.type === "Identifier") {
    const res = fc.resolution(arg)
    fc.load(res, arg.name)
    if (prefix) {
      fc.emit(inc)
      fc.emit(Op.Dup)
    } else {
      fc.emit(Op.ToNumeric)
      fc.emit(Op.Dup)
      fc.emit(inc)
    }
    fc.store(res, arg.name, false)
    return
  }
  if (arg.type !== "MemberExpression") throw new Error(`codemode bug: update of ${arg.type}`)
  const n = prepareMember(fc, arg)
  dupPrepared(fc, n)
  getMember(fc, arg)
  if (prefix) {
    fc.emit(inc)
    storeMember(fc, arg)
    return
  }
  fc.emit(Op.ToNumeric)
  tuckBelowPrepared(fc, n)
  fc.emit(inc)
  storeMember(fc, arg)
  fc.emit(Op.Pop)
}

// --- Destructuring --------------------------------------------------------------------------------------------

/**
 * Binds (init) or assigns the value on the stack to a pattern; consumes it. `source`: where the value comes from,
 * for V8's messages; `site`: what V8 names if an array pattern's value is not iterable, when not its source.
 */
export function destructure(fc: FunctionCompiler, node: Target, init: boolean, source?: PatternSource, site?: NotIterableSite): void {
  fc.enter(node)
  try {
    switch (node.type) {
      case "Identifier":
        fc.store(fc.resolution(node), node.name, init)
        return
      case "ObjectPattern":
        return ObjectPattern(fc, node, init, source)
      case "ArrayPattern":
        return ArrayPattern(fc, node, init, site ?? arrayPatternSite(source, init))
      case "AssignmentPattern": {
        const end = fc.label()
        fc.jump(Op.JumpIfNotUndefinedPeek, end)
        fc.emit(Op.Pop)
        compileDefault(fc, node.left, node.right as ESTree.Expression)
        fc.place(end)
        return destructure(fc, node.left, init, source === "parameter" ? "parameterDefault" : undefined)
      }
      case "MemberExpression":
        return bindTarget(fc, node)
      default:
        throw new Error(`codemode bug: ${node.type} as a destructuring target`)
    }
  } finally {
    fc.leave()
  }
}

function compileDefault(fc: FunctionCompiler, target: Target, value: ESTree.Expression): void {
  if (target.type === "Identifier") compileNamedExpression(fc, value, target.name)
  else compileExpression(fc, value)
}

/** One element of a pattern: evaluate the target reference, fetch the value, apply the default, store. */
function element(fc: FunctionCompiler, target: Target, init: boolean, getValue: () => void, site?: NotIterableSite): void {
  let def: ESTree.Expression | undefined
  if (target.type === "AssignmentPattern") {
    def = target.right
    target = target.left
  }
  const member = !init && target.type === "MemberExpression" ? target : undefined
  if (member !== undefined) prepareMember(fc, member)
  getValue()
  if (def !== undefined) {
    const end = fc.label()
    fc.jump(Op.JumpIfNotUndefinedPeek, end)
    fc.emit(Op.Pop)
    compileDefault(fc, target, def)
    fc.place(end)
  }
  if (member !== undefined) {
    storeMember(fc, member)
    fc.emit(Op.Pop)
  } else destructure(fc, target, init, undefined, site)
}

function ObjectPattern(fc: FunctionCompiler, node: ESTree.ObjectPattern, init: boolean, source: PatternSource | undefined): void {
  fc.emit(Op.RequireObjectCoercible, fc.asm.constant(destructureSite(node, source)))
  const src = fc.allocReg()
  fc.emit(Op.StoreReg, src)
  const hasRest = node.properties.some((p) => p.type === "RestElement")
  const excluded: Array<{ readonly name: string } | { readonly reg: number }> = []
  for (const p of node.properties) {
    if (p.type === "RestElement") {
      const target = p.argument
      const member = !init && target.type === "MemberExpression" ? target : undefined
      if (member !== undefined) prepareMember(fc, member)
      fc.emit(Op.NewObject)
      fc.emit(Op.LoadReg, src)
      for (const k of excluded) {
        if ("name" in k) fc.emit(Op.Const, fc.asm.constant(k.name))
        else fc.emit(Op.LoadReg, k.reg)
      }
      fc.emit(Op.CopyDataPropertiesExcluding, excluded.length)
      if (member !== undefined) {
        storeMember(fc, member)
        fc.emit(Op.Pop)
      } else destructure(fc, target, init)
      continue
    }
    const site = p.value.type === "ArrayPattern" ? patternPropertySite(source) : undefined
    if (p.computed) {
      compileExpression(fc, p.key)
      fc.emit(Op.ToPropertyKey)
      const keyReg = fc.allocReg()
      fc.emit(Op.StoreReg, keyReg)
      if (hasRest) excluded.push({ reg: keyReg })
      element(fc, p.value, init, () => {
        fc.emit(Op.LoadReg, src)
        fc.emit(Op.LoadReg, keyReg)
        fc.emit(Op.GetElem)
      }, site)
      if (!hasRest) fc.freeReg(keyReg)
    } else {
      const name = staticKey(p.key)
      if (hasRest) excluded.push({ name })
      element(fc, p.value, init, () => {
        fc.emit(Op.LoadReg, src)
        fc.emit(Op.GetField, fc.name(name))
      }, site)
    }
  }
  for (const k of excluded) if ("reg" in k) fc.freeReg(k.reg)
  fc.freeReg(src)
}

function ArrayPattern(fc: FunctionCompiler, node: ESTree.ArrayPattern, init: boolean, site: NotIterableSite | undefined): void {
  fc.emit(Op.GetIterator, siteConstant(fc, site), 1)
  const it = fc.allocReg()
  fc.emit(Op.StoreReg, it)
  const savedEnv = fc.saveEnvForHandler()
  const depth = fc.asm.depth
  const start = fc.asm.pc
  for (const el of node.elements) {
    if (el === null) {
      fc.emit(Op.LoadReg, it)
      fc.emit(Op.IterStep)
      fc.emit(Op.Pop)
    } else if (el.type === "RestElement") {
      const target = el.argument
      const member = !init && target.type === "MemberExpression" ? target : undefined
      if (member !== undefined) prepareMember(fc, member)
      fc.emit(Op.LoadReg, it)
      fc.emit(Op.IterRest)
      if (member !== undefined) {
        storeMember(fc, member)
        fc.emit(Op.Pop)
      } else destructure(fc, target, init)
    } else {
      element(fc, el, init, () => {
        fc.emit(Op.LoadReg, it)
        fc.emit(Op.IterStep)
      })
    }
  }
  const end = fc.asm.pc
  fc.emit(Op.LoadReg, it)
  fc.emit(Op.IterClose)
  const after = fc.label()
  fc.jump(Op.Jump, after)
  const onThrow = fc.label()
  fc.asm.handler(start, end, onThrow, depth)
  fc.place(onThrow)
  fc.restoreEnvInHandler(savedEnv)
  fc.emit(Op.LoadReg, it)
  fc.emit(Op.IterCloseForThrow)
  fc.place(after)
  fc.freeReg(it)
  if (savedEnv !== undefined) fc.freeReg(savedEnv)
}

/** A for-in/of head that is an assignment target: the value is already on the stack. */
export function bindTarget(fc: FunctionCompiler, target: ESTree.Pattern | ESTree.Expression): void {
  if (target.type !== "MemberExpression") return destructure(fc, target, false)
  const n = prepareMember(fc, target)
  // v prepared... -> prepared... v
  if (n === 1) fc.emit(Op.Swap)
  else if (n === 2) {
    fc.emit(Op.Rot3)
    fc.emit(Op.Rot3)
  } else {
    fc.emit(Op.Rot4)
    fc.emit(Op.Rot4)
    fc.emit(Op.Rot4)
  }
  storeMember(fc, target)
  fc.emit(Op.Pop)
}
