/**
 * Scope analysis: one pass over the checked AST that builds the side table both engines use. For every function
 * (the program body included, which is an async function body) it records parameters, var-scoped names and
 * hoisted function declarations; for every block-like scope (block, for head, switch, catch, class) its lexical
 * declarations; for every identifier that denotes a binding, the binding it resolves to (or none: a global
 * lookup); for every binding whether a closure captures it (captured bindings live in environment records,
 * the others can live in frame registers) and whether some reference may see it uninitialized (TDZ check).
 *
 * `this`, `new.target`, `arguments` and the active function (for `super`) are modelled as bindings of the
 * nearest non-arrow function ("pseudo-bindings"), created when first used. An arrow function that uses them
 * captures them like any variable, which is also what makes `this` in an arrow inside a derived constructor see
 * the value `super()` binds later. Private names (`#x`) are bindings of their class scope, named with the `#`.
 *
 * The walk recurses on the AST with a depth guard (`NestingTooDeep`), and walks left-nested chains of binary
 * and logical operators iteratively, so a 10,000-term `a + a + ...` is fine.
 */
import type { ESTree } from "meriyah"

type Node = ESTree.Node

export type BindingKind =
  | "var"
  | "function"
  | "param"
  | "let"
  | "const"
  | "class" // the outer binding of a class declaration (mutable, like let)
  | "classInner" // the class's own name inside its body (immutable)
  | "catch"
  | "callee" // a named function expression's own name (immutable)
  | "private"
  | "arguments"
  | "this"
  | "new.target"
  | "function-object" // the active function: home object and parent constructor for `super`

export type ScopeKind = "function" | "body" | "block" | "for" | "switch" | "catch" | "class"

export type FunctionKind =
  | "program"
  | "normal"
  | "arrow"
  | "method"
  | "constructor"
  | "derivedConstructor"
  | "fieldInitializer"
  | "staticBlock"

export class Binding {
  readonly name: string
  readonly kind: BindingKind
  readonly scope: Scope
  /** Referenced from a function other than the one that declares it: must live in an environment record. */
  captured = false
  /** Some reference may run before initialization: storage starts in the TDZ and those references check. */
  needsTdz = false
  /** Offset from which the binding is initialized for references in its own function; -1 if from scope entry. */
  readonly declEnd: number
  /** A body-scope var that starts with the value of the same-named parameter or arguments object (separate var environment). */
  initFromParam: Binding | undefined = undefined
  constructor(name: string, kind: BindingKind, scope: Scope, declEnd: number) {
    this.name = name
    this.kind = kind
    this.scope = scope
    this.declEnd = declEnd
  }
  get isLexical(): boolean {
    return this.kind === "let" || this.kind === "const" || this.kind === "class" || this.kind === "classInner"
  }
  get isImmutable(): boolean {
    return this.kind === "const" || this.kind === "classInner" || this.kind === "callee"
  }
}

export class Scope {
  readonly kind: ScopeKind
  readonly node: Node
  readonly parent: Scope | null
  readonly func: FunctionInfo
  /** In declaration order. */
  readonly bindings = new Map<string, Binding>()
  /** Function declarations instantiated when the scope is entered. */
  readonly functionDeclarations: ESTree.FunctionDeclaration[] = []
  constructor(kind: ScopeKind, node: Node, parent: Scope | null, func: FunctionInfo) {
    this.kind = kind
    this.node = node
    this.parent = parent
    this.func = func
  }
  declare(name: string, kind: BindingKind, declEnd: number): Binding {
    const existing = this.bindings.get(name)
    if (existing !== undefined) return existing
    const b = new Binding(name, kind, this, declEnd)
    this.bindings.set(name, b)
    return b
  }
  get hasCaptured(): boolean {
    for (const b of this.bindings.values()) if (b.captured) return true
    return false
  }
}

export class FunctionInfo {
  readonly node: Node
  readonly kind: FunctionKind
  readonly parent: FunctionInfo | null
  readonly strict: boolean
  readonly isAsync: boolean
  readonly isGenerator: boolean
  readonly params: ReadonlyArray<ESTree.Parameter>
  readonly hasSimpleParameterList: boolean
  readonly hasParameterExpressions: boolean
  /** Parameters and pseudo-bindings. */
  scope!: Scope
  /** Var-scoped declarations: `scope` itself unless parameter expressions require a separate environment. */
  bodyScope!: Scope
  constructor(
    node: Node,
    kind: FunctionKind,
    parent: FunctionInfo | null,
    strict: boolean,
    flags: { isAsync: boolean; isGenerator: boolean },
    params: ReadonlyArray<ESTree.Parameter>,
  ) {
    this.node = node
    this.kind = kind
    this.parent = parent
    this.strict = strict
    this.isAsync = flags.isAsync
    this.isGenerator = flags.isGenerator
    this.params = params
    this.hasSimpleParameterList = params.every((p) => p.type === "Identifier")
    this.hasParameterExpressions = params.some(containsExpression)
  }
  /**
   * For a function whose arguments object is mapped (it has one, its code is sloppy and its parameter list simple;
   * https://tc39.es/ecma262/#sec-functiondeclarationinstantiation step 22), the parameter binding each argument
   * index aliases: index i maps to parameter i unless a later parameter has the same name
   * (https://tc39.es/ecma262/#sec-createmappedargumentsobject). Undefined when the arguments object is unmapped
   * or absent. These bindings are captured, so they live in the function's environment record.
   */
  mappedParameters(): Array<Binding | undefined> | undefined {
    if (this.strict || !this.hasSimpleParameterList || this.pseudo("arguments") === undefined) return undefined
    const seen = new Set<string>()
    const out: Array<Binding | undefined> = []
    for (let i = this.params.length - 1; i >= 0; i--) {
      const name = (this.params[i] as ESTree.Identifier).name
      out[i] = seen.has(name) ? undefined : this.scope.bindings.get(name)
      seen.add(name)
    }
    return out
  }
  /** A pseudo-binding of this function, if some code uses it. */
  pseudo(name: "this" | "new.target" | "function-object" | "arguments"): Binding | undefined {
    const b = this.scope.bindings.get(name === "function-object" ? FUNCTION_OBJECT : name)
    return b !== undefined && b.kind === name ? b : undefined
  }
}

/** A reference's resolution: the binding (undefined: a global lookup) and whether it must check the TDZ. */
export interface Resolution {
  readonly binding: Binding | undefined
  readonly checked: boolean
}

export interface ScopeAnalysis {
  readonly program: FunctionInfo
  /** Functions by node: function/arrow nodes, class field definitions (initializers) and static blocks. */
  readonly functions: ReadonlyMap<Node, FunctionInfo>
  /** The scope a block-like node creates (BlockStatement, For*, SwitchStatement, CatchClause, Class*), if any. */
  readonly scopes: ReadonlyMap<Node, Scope>
  /** Identifiers denoting bindings (declarations and references), PrivateIdentifiers, `this`, `new.target`. */
  readonly references: ReadonlyMap<Node, Resolution>
  /** For each `super` node: the function-object binding (home object) and the `this` binding. */
  readonly superReferences: ReadonlyMap<Node, { readonly func: Resolution; readonly thisValue: Resolution; readonly newTarget: Resolution }>
  /**
   * Annex B.3.2.1 (sloppy code): a function declared in a block also has a var binding in its function, which
   * evaluating the declaration sets to the block binding's current value. By declaration node: that var binding.
   */
  readonly annexBFunctions: ReadonlyMap<ESTree.FunctionDeclaration, Binding>
}

/** The program nests deeper than the analysis (or the compiler) is willing to recurse. */
export class NestingTooDeep {
  readonly offset: number
  constructor(offset: number) {
    this.offset = offset
  }
}

export const MAX_NESTING = 1500
/** A nested function costs this many levels: analysing and compiling one recurses through more host frames. */
export const FUNCTION_NESTING_WEIGHT = 4
const FUNCTION_OBJECT = "%function-object"

/** Analyses a program body (the statements of an async function body). */
export function analyzeScopes(program: ESTree.Program, strict: boolean): ScopeAnalysis {
  return new Analyzer().analyzeProgram(program, strict)
}

class Analyzer {
  readonly functions = new Map<Node, FunctionInfo>()
  readonly scopes = new Map<Node, Scope>()
  readonly references = new Map<Node, Resolution>()
  readonly superReferences = new Map<Node, { func: Resolution; thisValue: Resolution; newTarget: Resolution }>()
  readonly annexBFunctions = new Map<ESTree.FunctionDeclaration, Binding>()
  depth = 0

  analyzeProgram(program: ESTree.Program, strict: boolean): ScopeAnalysis {
    const body = program.body as ESTree.Statement[]
    const fi = new FunctionInfo(program, "program", null, strict || hasUseStrict(body), { isAsync: true, isGenerator: false }, [])
    this.functionBody(fi, null, body, undefined)
    return {
      program: fi,
      functions: this.functions,
      scopes: this.scopes,
      references: this.references,
      superReferences: this.superReferences,
      annexBFunctions: this.annexBFunctions,
    }
  }

  // --- Functions ----------------------------------------------------------------------------------------------

  /** Sets up a function's scopes, declares everything it hoists, then visits parameters and body. */
  functionBody(fi: FunctionInfo, parentScope: Scope | null, body: ReadonlyArray<ESTree.Statement> | ESTree.Expression, calleeName: string | undefined): void {
    this.depth += FUNCTION_NESTING_WEIGHT
    if (this.depth > MAX_NESTING) throw new NestingTooDeep(fi.node.start ?? 0)
    try {
      this.functionBodyInner(fi, parentScope, body, calleeName)
    } finally {
      this.depth -= FUNCTION_NESTING_WEIGHT
    }
  }

  functionBodyInner(fi: FunctionInfo, parentScope: Scope | null, body: ReadonlyArray<ESTree.Statement> | ESTree.Expression, calleeName: string | undefined): void {
    this.functions.set(fi.node, fi)
    const scope = new Scope("function", fi.node, parentScope, fi)
    fi.scope = scope
    for (const p of fi.params) {
      for (const id of boundIdentifiers(p)) scope.declare(id.name, "param", fi.hasParameterExpressions ? (p.end ?? 0) : -1)
    }
    const bodyScope = fi.hasParameterExpressions ? new Scope("body", fi.node, scope, fi) : scope
    fi.bodyScope = bodyScope
    if (Array.isArray(body)) {
      for (const id of varDeclaredIdentifiers(body)) {
        const existing = scope.bindings.get(id.name)
        if (bodyScope === scope && existing !== undefined) continue
        if (id.name === "arguments" && existing === undefined && hasOwnArguments(fi)) {
          // `var arguments` is the arguments object's binding, or starts with its value in a separate var
          // environment (https://tc39.es/ecma262/#sec-functiondeclarationinstantiation steps 22.f and 28).
          const ao = argumentsBinding(fi)
          if (bodyScope !== scope) bodyScope.declare("arguments", "var", -1).initFromParam = ao
          continue
        }
        const b = bodyScope.declare(id.name, "var", -1)
        if (existing !== undefined && existing.kind === "param") b.initFromParam = existing
      }
      this.declareLexical(bodyScope, body, true)
      if (!fi.strict) this.hoistBlockFunctions(fi, body)
    }
    if (calleeName !== undefined && !scope.bindings.has(calleeName) && !bodyScope.bindings.has(calleeName)) {
      scope.declare(calleeName, "callee", -1)
    }
    // A derived constructor always has a `this` binding: its return checks that super() initialized it.
    if (fi.kind === "derivedConstructor") scope.declare("this", "this", -1).needsTdz = true
    for (const p of fi.params) this.pattern(p, scope, true)
    if (Array.isArray(body)) this.statements(body, bodyScope)
    else this.expression(body as ESTree.Expression, bodyScope)
  }

  functionNode(
    node: ESTree.FunctionDeclaration | ESTree.FunctionExpression | ESTree.ArrowFunctionExpression,
    scope: Scope,
    kind: FunctionKind,
    classCode = false,
  ): void {
    const parentFi = scope.func
    const bodyStatements = node.body?.type === "BlockStatement" ? node.body.body : undefined
    const strict = parentFi.strict || classCode || (bodyStatements !== undefined && hasUseStrict(bodyStatements))
    const fi = new FunctionInfo(node, kind, parentFi, strict, { isAsync: node.async, isGenerator: node.generator }, node.params)
    const calleeName = node.type === "FunctionExpression" && node.id !== null && kind === "normal" ? node.id.name : undefined
    this.functionBody(fi, scope, bodyStatements ?? (node.body as ESTree.Expression), calleeName)
    if (calleeName !== undefined && node.type === "FunctionExpression" && node.id !== null) {
      this.references.set(node.id, { binding: fi.scope.bindings.get(calleeName), checked: false })
    }
  }

  // --- Declarations -------------------------------------------------------------------------------------------

  /** Declares the lexically scoped declarations among `statements` (and, in blocks, function declarations). */
  declareLexical(scope: Scope, statements: ReadonlyArray<ESTree.Statement>, topLevel: boolean, declEnd?: number): void {
    for (const s of statements) {
      if (s.type === "VariableDeclaration" && s.kind !== "var") {
        for (const d of s.declarations) {
          // `using` and `await using` bindings are immutable, as `const` ones.
          for (const id of boundIdentifiers(d.id)) scope.declare(id.name, s.kind === "let" ? "let" : "const", declEnd ?? d.end ?? 0)
        }
      } else if (s.type === "ClassDeclaration" && s.id !== null) {
        scope.declare(s.id.name, "class", s.end ?? 0)
      } else {
        const f = declaredFunction(s)
        if (f === undefined || f.id === null) continue
        if (topLevel) {
          const existing = scope.bindings.get(f.id.name) ?? scope.func.scope.bindings.get(f.id.name)
          if (existing === undefined) scope.declare(f.id.name, "function", -1)
        } else {
          scope.declare(f.id.name, "function", -1)
        }
        scope.functionDeclarations.push(f)
      }
    }
  }

  /**
   * Annex B.3.2.1: gives each function declared in a block (or a switch case) of sloppy function `fi` a var binding
   * of the same name in `fi`, unless replacing the declaration by `var F` would be an early error (a lexical
   * declaration of F in an enclosing block, a destructuring catch parameter or the function's top level) or F is
   * a parameter. Walked iteratively, not entering nested functions (they hoist into themselves).
   */
  hoistBlockFunctions(fi: FunctionInfo, body: ReadonlyArray<ESTree.Statement>): void {
    const params = new Set(fi.params.flatMap((p) => boundIdentifiers(p).map((id) => id.name)))
    const top: LexicalNames = { names: lexicalNames(body, false), parent: undefined }
    const stack: Array<[ESTree.Statement, LexicalNames]> = body.map((st) => [st, top])
    const list = (statements: ReadonlyArray<ESTree.Statement>, outer: LexicalNames): void => {
      for (const st of statements) {
        const f = declaredFunction(st)
        if (f === undefined || f.id === null || f.async || f.generator) continue
        const name = f.id.name
        if (params.has(name) || declaresLexically(outer, name)) continue
        const v = this.annexBVar(fi, name)
        if (v !== undefined) this.annexBFunctions.set(f, v)
      }
      const inner: LexicalNames = { names: lexicalNames(statements, true), parent: outer }
      for (let i = statements.length - 1; i >= 0; i--) stack.push([statements[i] as ESTree.Statement, inner])
    }
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const [st, outer] = item
      switch (st.type) {
        case "BlockStatement":
          list(st.body, outer)
          break
        case "SwitchStatement":
          list(st.cases.flatMap((c) => c.consequent), outer)
          break
        case "IfStatement":
          if (st.alternate !== null) stack.push([st.alternate, outer])
          stack.push([st.consequent, outer])
          break
        case "WhileStatement":
        case "DoWhileStatement":
        case "LabeledStatement":
        case "WithStatement":
          stack.push([st.body, outer])
          break
        case "ForStatement":
        case "ForInStatement":
        case "ForOfStatement": {
          const head = st.type === "ForStatement" ? st.init : st.left
          const lexical = head !== null && head.type === "VariableDeclaration" && head.kind !== "var"
          stack.push([st.body, lexical ? { names: new Set(head.declarations.flatMap((d) => boundIdentifiers(d.id).map((id) => id.name))), parent: outer } : outer])
          break
        }
        case "TryStatement":
          if (st.finalizer !== null) stack.push([st.finalizer, outer])
          if (st.handler !== null) {
            // A catch parameter that is a plain identifier may be redeclared by `var` (B.3.4); a pattern may not.
            const param = st.handler.param
            const names = param === null || param.type === "Identifier" ? undefined : new Set(boundIdentifiers(param).map((id) => id.name))
            stack.push([st.handler.body, names === undefined ? outer : { names, parent: outer }])
          }
          stack.push([st.block, outer])
          break
        default:
          break
      }
    }
  }

  /** The var binding a hoisted block function `name` sets: an existing var or function of `fi`, or a new var. */
  annexBVar(fi: FunctionInfo, name: string): Binding | undefined {
    const existing = fi.bodyScope.bindings.get(name)
    if (existing !== undefined) return existing
    if (name !== "arguments") return fi.bodyScope.declare(name, "var", -1)
    // F = "arguments" creates no binding: the declaration sets the arguments object's, when there is one.
    return hasOwnArguments(fi) && fi.bodyScope === fi.scope ? argumentsBinding(fi) : undefined
  }

  /** A block-like scope if the statements declare anything lexically. */
  blockScope(kind: ScopeKind, node: Node, parent: Scope, statements: ReadonlyArray<ESTree.Statement>): Scope {
    if (!statements.some(isLexicalDeclaration)) return parent
    const scope = new Scope(kind, node, parent, parent.func)
    this.declareLexical(scope, statements, false)
    this.scopes.set(node, scope)
    return scope
  }

  // --- Resolution ---------------------------------------------------------------------------------------------

  resolve(node: Node, name: string, from: Scope, position: number): Resolution {
    let crossed = false
    for (let s: Scope | null = from; s !== null; s = s.parent) {
      const b = s.bindings.get(name)
      if (b !== undefined) return this.use(b, from, crossed, position)
      if (s.kind === "function") {
        if (name === "arguments" && hasOwnArguments(s.func)) return this.use(argumentsBinding(s.func), from, crossed, position)
        crossed = true
      }
    }
    void node
    return { binding: undefined, checked: false }
  }

  /** `this`, `new.target` and the active function: the nearest non-arrow function's pseudo-binding. */
  resolvePseudo(name: "this" | "new.target" | "function-object", from: Scope): Resolution {
    let fi = from.func
    while (fi.kind === "arrow" && fi.parent !== null) fi = fi.parent
    const key = name === "function-object" ? FUNCTION_OBJECT : name
    const b = fi.scope.declare(key, name, -1)
    if (name === "this" && fi.kind === "derivedConstructor") b.needsTdz = true
    const crossed = fi !== from.func
    if (crossed) b.captured = true
    return { binding: b, checked: name === "this" && fi.kind === "derivedConstructor" }
  }

  use(b: Binding, from: Scope, crossed: boolean, position: number): Resolution {
    if (crossed) b.captured = true
    const tdzCandidate = b.isLexical || (b.kind === "param" && b.declEnd >= 0)
    const checked = tdzCandidate && (crossed || position < b.declEnd || b.scope.kind === "switch")
    if (checked) b.needsTdz = true
    void from
    return { binding: b, checked }
  }

  reference(id: ESTree.Identifier, scope: Scope): void {
    this.references.set(id, this.resolve(id, id.name, scope, id.start ?? 0))
  }

  // --- Statements ---------------------------------------------------------------------------------------------

  statements(list: ReadonlyArray<ESTree.Statement>, scope: Scope): void {
    for (const s of list) this.statement(s, scope)
  }

  statement(node: ESTree.Statement, scope: Scope): void {
    if (++this.depth > MAX_NESTING) throw new NestingTooDeep(node.start ?? 0)
    try {
      this.statementInner(node, scope)
    } finally {
      this.depth--
    }
  }

  statementInner(node: ESTree.Statement, scope: Scope): void {
    switch (node.type) {
      case "ExpressionStatement":
        return this.expression(node.expression, scope)
      case "BlockStatement": {
        const inner = this.blockScope("block", node, scope, node.body)
        return this.statements(node.body, inner)
      }
      case "EmptyStatement":
      case "DebuggerStatement":
      case "BreakStatement":
      case "ContinueStatement":
        return
      case "ReturnStatement":
      case "ThrowStatement":
        if (node.argument !== null) this.expression(node.argument, scope)
        return
      case "IfStatement":
        this.expression(node.test, scope)
        this.statement(node.consequent, scope)
        if (node.alternate !== null) this.statement(node.alternate, scope)
        return
      case "LabeledStatement":
        return this.statement(node.body, scope)
      case "WhileStatement":
      case "DoWhileStatement":
        this.expression(node.test, scope)
        return this.statement(node.body, scope)
      case "ForStatement": {
        let inner = scope
        if (node.init !== null && node.init.type === "VariableDeclaration" && node.init.kind !== "var") {
          inner = new Scope("for", node, scope, scope.func)
          this.declareLexical(inner, [node.init], false)
          this.scopes.set(node, inner)
        }
        if (node.init !== null) {
          if (node.init.type === "VariableDeclaration") this.variableDeclaration(node.init, inner)
          else this.expression(node.init, inner)
        }
        if (node.test !== null) this.expression(node.test, inner)
        if (node.update !== null) this.expression(node.update, inner)
        return this.statement(node.body, inner)
      }
      case "ForInStatement":
      case "ForOfStatement": {
        let inner = scope
        if (node.left.type === "VariableDeclaration" && node.left.kind !== "var") {
          inner = new Scope("for", node, scope, scope.func)
          // Initialized per iteration, after the right-hand side: references in the head see the TDZ.
          this.declareLexical(inner, [node.left], false, node.right.end ?? 0)
          this.scopes.set(node, inner)
        }
        // The right-hand side sees the loop's bindings in their TDZ (ForIn/OfHeadEvaluation).
        this.expression(node.right, inner)
        if (node.left.type === "VariableDeclaration") this.variableDeclaration(node.left, inner)
        else this.pattern(node.left as ESTree.Pattern, inner, false)
        return this.statement(node.body, inner)
      }
      case "SwitchStatement": {
        this.expression(node.discriminant, scope)
        const all = node.cases.flatMap((c) => c.consequent)
        const inner = this.blockScope("switch", node, scope, all)
        for (const c of node.cases) {
          if (c.test !== null) this.expression(c.test, inner)
          this.statements(c.consequent, inner)
        }
        return
      }
      case "TryStatement":
        this.statement(node.block, scope)
        if (node.handler !== null) {
          const h = node.handler
          const inner = new Scope("catch", h, scope, scope.func)
          this.scopes.set(h, inner)
          if (h.param !== null) for (const id of boundIdentifiers(h.param)) inner.declare(id.name, "catch", -1)
          this.declareLexical(inner, h.body.body, false)
          if (h.param !== null) this.pattern(h.param, inner, true)
          this.statements(h.body.body, inner)
        }
        if (node.finalizer !== null) this.statement(node.finalizer, scope)
        return
      case "VariableDeclaration":
        return this.variableDeclaration(node, scope)
      case "FunctionDeclaration":
        if (node.id !== null) this.pattern(node.id, scope, true)
        return this.functionNode(node, scope, "normal")
      case "ClassDeclaration":
        if (node.id !== null) this.pattern(node.id, scope, true)
        return this.classNode(node, scope)
      case "WithStatement":
        this.expression(node.object, scope)
        return this.statement(node.body, scope)
      default:
        return unsupportedNode(node)
    }
  }

  variableDeclaration(node: ESTree.VariableDeclaration, scope: Scope): void {
    for (const d of node.declarations) {
      if (d.init !== null) this.expression(d.init, scope)
      this.pattern(d.id, scope, true)
    }
  }

  // --- Patterns -----------------------------------------------------------------------------------------------

  /** Binding identifiers (declaration) or assignment targets (references) and the expressions inside patterns. */
  pattern(node: ESTree.Parameter | ESTree.Pattern | ESTree.CallExpression, scope: Scope, declaration: boolean): void {
    switch (node.type) {
      case "Identifier":
        if (declaration) {
          this.references.set(node, { binding: this.resolve(node, node.name, scope, Infinity).binding, checked: false })
        } else {
          this.reference(node, scope)
        }
        return
      case "ObjectPattern":
        for (const p of node.properties) {
          if (p.type === "RestElement") this.pattern(p.argument, scope, declaration)
          else {
            if (p.computed) this.expression(p.key, scope)
            this.pattern(p.value, scope, declaration)
          }
        }
        return
      case "ArrayPattern":
        for (const e of node.elements) if (e !== null) this.pattern(e, scope, declaration)
        return
      case "AssignmentPattern":
        this.pattern(node.left, scope, declaration)
        return this.expression(node.right as ESTree.Expression, scope)
      case "RestElement":
        return this.pattern(node.argument, scope, declaration)
      case "MemberExpression":
      case "CallExpression":
        return this.expression(node, scope)
      default:
        return unsupportedNode(node)
    }
  }

  // --- Expressions --------------------------------------------------------------------------------------------

  expression(node: ESTree.Expression | ESTree.SpreadElement | ESTree.PrivateIdentifier | ESTree.Super, scope: Scope): void {
    if (++this.depth > MAX_NESTING) throw new NestingTooDeep(node.start ?? 0)
    try {
      this.expressionInner(node, scope)
    } finally {
      this.depth--
    }
  }

  expressionInner(node: ESTree.Expression | ESTree.SpreadElement | ESTree.PrivateIdentifier | ESTree.Super, scope: Scope): void {
    switch (node.type) {
      case "Identifier":
        return this.reference(node, scope)
      case "PrivateIdentifier":
        this.references.set(node, this.resolve(node, `#${node.name}`, scope, Infinity))
        return
      case "Literal":
      case "TemplateElement" as never:
        return
      case "ThisExpression":
        this.references.set(node, this.resolvePseudo("this", scope))
        return
      case "Super":
        this.superReferences.set(node, {
          func: this.resolvePseudo("function-object", scope),
          thisValue: this.resolvePseudo("this", scope),
          newTarget: this.resolvePseudo("new.target", scope),
        })
        return
      case "MetaProperty":
        if (node.meta.name === "new") this.references.set(node, this.resolvePseudo("new.target", scope))
        return
      case "ArrayExpression":
        for (const e of node.elements) if (e !== null) this.expression(e, scope)
        return
      case "ObjectExpression":
        for (const p of node.properties) {
          if (p.type === "SpreadElement") this.expression(p.argument, scope)
          else if (p.type === "Property") {
            if (p.computed) this.expression(p.key, scope)
            if (p.kind !== "init" || p.method) this.functionNode(p.value as ESTree.FunctionExpression, scope, "method")
            else this.expression(p.value as ESTree.Expression, scope)
          }
        }
        return
      case "FunctionExpression":
        return this.functionNode(node, scope, "normal")
      case "ArrowFunctionExpression":
        return this.functionNode(node, scope, "arrow")
      case "ClassExpression":
        return this.classNode(node, scope)
      case "TemplateLiteral":
        for (const e of node.expressions) this.expression(e, scope)
        return
      case "TaggedTemplateExpression":
        this.expression(node.tag, scope)
        for (const e of node.quasi.expressions) this.expression(e, scope)
        return
      case "MemberExpression":
        this.expression(node.object, scope)
        if (node.computed || node.property.type === "PrivateIdentifier") this.expression(node.property, scope)
        return
      case "ChainExpression":
        return this.expression(node.expression, scope)
      case "CallExpression":
      case "NewExpression":
        this.expression(node.callee as ESTree.Expression, scope)
        for (const a of node.arguments) this.expression(a, scope)
        return
      case "SpreadElement":
      case "AwaitExpression":
        return this.expression(node.argument, scope)
      case "YieldExpression":
        if (node.argument !== null && node.argument !== undefined) this.expression(node.argument, scope)
        return
      case "UnaryExpression":
      case "UpdateExpression":
        return this.expression(node.argument, scope)
      case "BinaryExpression":
      case "LogicalExpression": {
        // Left-nested chains iteratively: a + a + ... + a.
        const rights: Array<ESTree.Expression | ESTree.PrivateIdentifier> = []
        let left: ESTree.Expression | ESTree.PrivateIdentifier = node
        while (left.type === "BinaryExpression" || left.type === "LogicalExpression") {
          rights.push(left.right)
          left = left.left as ESTree.Expression | ESTree.PrivateIdentifier
        }
        this.expression(left, scope)
        for (let i = rights.length - 1; i >= 0; i--) this.expression(rights[i] as ESTree.Expression, scope)
        return
      }
      case "ConditionalExpression":
        this.expression(node.test, scope)
        this.expression(node.consequent, scope)
        return this.expression(node.alternate, scope)
      case "AssignmentExpression":
        this.pattern(node.left, scope, false)
        return this.expression(node.right, scope)
      case "SequenceExpression":
        for (const e of node.expressions) this.expression(e, scope)
        return
      case "ImportExpression":
        return this.expression(node.source, scope)
      default:
        return unsupportedNode(node)
    }
  }

  // --- Classes ------------------------------------------------------------------------------------------------

  classNode(node: ESTree.ClassDeclaration | ESTree.ClassExpression, outer: Scope): void {
    const scope = new Scope("class", node, outer, outer.func)
    this.scopes.set(node, scope)
    if (node.id !== null) scope.declare(node.id.name, "classInner", node.end ?? 0)
    for (const el of node.body.body) {
      if ((el.type === "MethodDefinition" || el.type === "PropertyDefinition") && el.key?.type === "PrivateIdentifier") {
        const b = scope.declare(`#${el.key.name}`, "private", -1)
        this.references.set(el.key, { binding: b, checked: false })
      }
    }
    // Class code is strict: the heritage and computed keys are evaluated in the enclosing function, which may not be.
    if (node.superClass !== null) this.expression(node.superClass, scope)
    const derived = node.superClass !== null
    for (const el of node.body.body) {
      switch (el.type) {
        case "MethodDefinition": {
          if (el.computed && el.key !== null) this.expression(el.key as ESTree.Expression, scope)
          const kind: FunctionKind = el.kind === "constructor" ? (derived ? "derivedConstructor" : "constructor") : "method"
          this.functionNode(el.value, scope, kind, true)
          break
        }
        case "PropertyDefinition": {
          if (el.computed) this.expression(el.key as ESTree.Expression, scope)
          if (el.value === null) break
          const fi = new FunctionInfo(el, "fieldInitializer", scope.func, true, { isAsync: false, isGenerator: false }, [])
          this.functionBody(fi, scope, el.value, undefined)
          break
        }
        case "StaticBlock": {
          const fi = new FunctionInfo(el, "staticBlock", scope.func, true, { isAsync: false, isGenerator: false }, [])
          this.functionBody(fi, scope, el.body, undefined)
          break
        }
        default:
          unsupportedNode(el as Node)
      }
    }
  }
}

// --- Static semantics helpers (https://tc39.es/ecma262/#sec-static-semantic-rules) ---------------------------------

const hasOwnArguments = (fi: FunctionInfo): boolean =>
  fi.kind !== "arrow" && fi.kind !== "fieldInitializer" && fi.kind !== "staticBlock"

/** The function's arguments object binding. A mapped one aliases the parameters, so they live in its environment. */
const argumentsBinding = (fi: FunctionInfo): Binding => {
  if (!fi.strict && fi.hasSimpleParameterList) for (const b of fi.scope.bindings.values()) if (b.kind === "param") b.captured = true
  return fi.scope.declare("arguments", "arguments", -1)
}

const isLexicalDeclaration = (s: ESTree.Statement): boolean =>
  (s.type === "VariableDeclaration" && s.kind !== "var") || s.type === "ClassDeclaration" || declaredFunction(s) !== undefined

/** The function a statement declares: a function declaration, possibly labelled (sloppy code, B.3.1). */
const declaredFunction = (s: ESTree.Statement): ESTree.FunctionDeclaration | undefined => {
  let st: ESTree.Statement = s
  while (st.type === "LabeledStatement") st = st.body
  return st.type === "FunctionDeclaration" ? st : undefined
}

/** The lexically declared names of the enclosing blocks, innermost first. */
interface LexicalNames {
  readonly names: ReadonlySet<string>
  readonly parent: LexicalNames | undefined
}

const declaresLexically = (chain: LexicalNames | undefined, name: string): boolean => {
  for (let c = chain; c !== undefined; c = c.parent) if (c.names.has(name)) return true
  return false
}

/** LexicallyDeclaredNames of a statement list; a function's top level (`inBlock` false) declares functions as vars. */
const lexicalNames = (statements: ReadonlyArray<ESTree.Statement>, inBlock: boolean): Set<string> => {
  const names = new Set<string>()
  for (const s of statements) {
    if (s.type === "VariableDeclaration" && s.kind !== "var") {
      for (const d of s.declarations) for (const id of boundIdentifiers(d.id)) names.add(id.name)
    } else if (s.type === "ClassDeclaration" && s.id !== null) names.add(s.id.name)
    else if (inBlock) {
      const f = declaredFunction(s)
      if (f !== undefined && f.id !== null) names.add(f.id.name)
    }
  }
  return names
}

/** Leading "use strict" directive. */
export const hasUseStrict = (body: ReadonlyArray<ESTree.Statement>): boolean => {
  for (const s of body) {
    if (s.type !== "ExpressionStatement" || s.directive === undefined) return false
    if (s.directive === "use strict") return true
  }
  return false
}

/** https://tc39.es/ecma262/#sec-static-semantics-boundnames for patterns. */
export function boundIdentifiers(node: ESTree.Parameter | ESTree.Pattern | ESTree.CallExpression): ESTree.Identifier[] {
  const out: ESTree.Identifier[] = []
  const stack: Array<ESTree.Parameter | ESTree.Pattern | ESTree.CallExpression> = [node]
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    switch (n.type) {
      case "Identifier":
        out.push(n)
        break
      case "ObjectPattern":
        for (let i = n.properties.length - 1; i >= 0; i--) {
          const p = n.properties[i] as ESTree.AssignmentProperty | ESTree.RestElement
          stack.push(p.type === "RestElement" ? p.argument : p.value)
        }
        break
      case "ArrayPattern":
        for (let i = n.elements.length - 1; i >= 0; i--) {
          const e = n.elements[i]
          if (e !== null && e !== undefined) stack.push(e)
        }
        break
      case "AssignmentPattern":
        stack.push(n.left)
        break
      case "RestElement":
        stack.push(n.argument)
        break
      default:
        break
    }
  }
  return out
}

/** https://tc39.es/ecma262/#sec-static-semantics-containsexpression */
function containsExpression(node: ESTree.Parameter | ESTree.Pattern | ESTree.CallExpression): boolean {
  switch (node.type) {
    case "AssignmentPattern":
      return true
    case "ObjectPattern":
      return node.properties.some((p) => (p.type === "RestElement" ? containsExpression(p.argument) : p.computed || containsExpression(p.value)))
    case "ArrayPattern":
      return node.elements.some((e) => e !== null && containsExpression(e))
    case "RestElement":
      return containsExpression(node.argument)
    default:
      return false
  }
}

/**
 * https://tc39.es/ecma262/#sec-static-semantics-vardeclarednames — var declarations anywhere in the body
 * (not inside nested functions or classes). Walked iteratively.
 */
function varDeclaredIdentifiers(body: ReadonlyArray<ESTree.Statement>): ESTree.Identifier[] {
  const out: ESTree.Identifier[] = []
  const stack: ESTree.Statement[] = [...body].reverse()
  const pushAll = (list: ReadonlyArray<ESTree.Statement>): void => {
    for (let i = list.length - 1; i >= 0; i--) stack.push(list[i] as ESTree.Statement)
  }
  for (let s = stack.pop(); s !== undefined; s = stack.pop()) {
    switch (s.type) {
      case "VariableDeclaration":
        if (s.kind === "var") for (const d of s.declarations) out.push(...boundIdentifiers(d.id))
        break
      case "BlockStatement":
        pushAll(s.body)
        break
      case "IfStatement":
        if (s.alternate !== null) stack.push(s.alternate)
        stack.push(s.consequent)
        break
      case "WhileStatement":
      case "DoWhileStatement":
      case "LabeledStatement":
      case "WithStatement":
        stack.push(s.body)
        break
      case "ForStatement":
        stack.push(s.body)
        if (s.init !== null && s.init.type === "VariableDeclaration") stack.push(s.init)
        break
      case "ForInStatement":
      case "ForOfStatement":
        stack.push(s.body)
        if (s.left.type === "VariableDeclaration") stack.push(s.left)
        break
      case "SwitchStatement":
        for (let i = s.cases.length - 1; i >= 0; i--) pushAll((s.cases[i] as ESTree.SwitchCase).consequent)
        break
      case "TryStatement":
        if (s.finalizer !== null) stack.push(s.finalizer)
        if (s.handler !== null) stack.push(s.handler.body)
        stack.push(s.block)
        break
      default:
        break
    }
  }
  return out
}

function unsupportedNode(node: { readonly type: string }): never {
  throw new Error(`codemode bug: scope analysis met an unexpected ${node.type}`)
}
