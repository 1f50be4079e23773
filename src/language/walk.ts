/**
 * Child traversal for meriyah's ESTree nodes. `VISITOR_KEYS` lists, for every node type meriyah can produce, the
 * properties that hold child nodes, in source order; `forEachChild` visits them. Every pass over the AST (position
 * rebasing, the unsupported-syntax scan, early errors, and later the compiler and scope analysis) goes through this
 * one table, so a node type added to meriyah is added here once and the mapped type below makes a missing entry a
 * type error. Plain data hanging off nodes (`loc`, `regex`, `TemplateElement.value`, a Literal's value) is not
 * visited.
 */
import type { ESTree } from "meriyah"

export type Node = ESTree.Node
export type NodeType = Node["type"]
export type NodeOfType<T extends NodeType> = Extract<Node, { readonly type: T }>

type ChildKeys = { readonly [T in NodeType]: ReadonlyArray<keyof NodeOfType<T> & string> }

export const VISITOR_KEYS: ChildKeys = {
  AccessorProperty: ["decorators", "key", "value"],
  ArrayExpression: ["elements"],
  ArrayPattern: ["elements"],
  ArrowFunctionExpression: ["params", "body"],
  AssignmentExpression: ["left", "right"],
  AssignmentPattern: ["left", "right"],
  AwaitExpression: ["argument"],
  BinaryExpression: ["left", "right"],
  BlockStatement: ["body"],
  BreakStatement: ["label"],
  CallExpression: ["callee", "arguments"],
  CatchClause: ["param", "body"],
  ChainExpression: ["expression"],
  ClassBody: ["body"],
  ClassDeclaration: ["decorators", "id", "superClass", "body"],
  ClassExpression: ["decorators", "id", "superClass", "body"],
  ConditionalExpression: ["test", "consequent", "alternate"],
  ContinueStatement: ["label"],
  DebuggerStatement: [],
  Decorator: ["expression"],
  DoWhileStatement: ["body", "test"],
  EmptyStatement: [],
  ExportAllDeclaration: ["exported", "source", "attributes"],
  ExportDefaultDeclaration: ["declaration"],
  ExportNamedDeclaration: ["declaration", "specifiers", "source", "attributes"],
  ExportSpecifier: ["local", "exported"],
  ExpressionStatement: ["expression"],
  ForInStatement: ["left", "right", "body"],
  ForOfStatement: ["left", "right", "body"],
  ForStatement: ["init", "test", "update", "body"],
  FunctionDeclaration: ["id", "params", "body"],
  FunctionExpression: ["id", "params", "body"],
  Identifier: [],
  IfStatement: ["test", "consequent", "alternate"],
  ImportAttribute: ["key", "value"],
  ImportDeclaration: ["specifiers", "source", "attributes"],
  ImportDefaultSpecifier: ["local"],
  ImportExpression: ["source", "options"],
  ImportNamespaceSpecifier: ["local"],
  ImportSpecifier: ["imported", "local"],
  JSXAttribute: ["name", "value"],
  JSXClosingElement: ["name"],
  JSXClosingFragment: [],
  JSXElement: ["openingElement", "children", "closingElement"],
  JSXEmptyExpression: [],
  JSXExpressionContainer: ["expression"],
  JSXFragment: ["openingFragment", "children", "closingFragment"],
  JSXIdentifier: [],
  JSXMemberExpression: ["object", "property"],
  JSXNamespacedName: ["namespace", "name"],
  JSXOpeningElement: ["name", "attributes"],
  JSXOpeningFragment: [],
  JSXSpreadAttribute: ["argument"],
  JSXSpreadChild: ["expression"],
  JSXText: [],
  LabeledStatement: ["label", "body"],
  Literal: [],
  LogicalExpression: ["left", "right"],
  MemberExpression: ["object", "property"],
  MetaProperty: ["meta", "property"],
  MethodDefinition: ["decorators", "key", "value"],
  NewExpression: ["callee", "arguments"],
  ObjectExpression: ["properties"],
  ObjectPattern: ["properties"],
  ParenthesizedExpression: ["expression"],
  PrivateIdentifier: [],
  Program: ["body"],
  Property: ["key", "value"],
  PropertyDefinition: ["decorators", "key", "value"],
  RestElement: ["argument", "value"],
  ReturnStatement: ["argument"],
  SequenceExpression: ["expressions"],
  SpreadElement: ["argument"],
  StaticBlock: ["body"],
  Super: [],
  SwitchCase: ["test", "consequent"],
  SwitchStatement: ["discriminant", "cases"],
  TaggedTemplateExpression: ["tag", "quasi"],
  TemplateElement: [],
  TemplateLiteral: ["quasis", "expressions"],
  ThisExpression: [],
  ThrowStatement: ["argument"],
  TryStatement: ["block", "handler", "finalizer"],
  UnaryExpression: ["argument"],
  UpdateExpression: ["argument"],
  VariableDeclaration: ["declarations"],
  VariableDeclarator: ["id", "init"],
  WhileStatement: ["test", "body"],
  WithStatement: ["object", "body"],
  YieldExpression: ["argument"],
}

/**
 * Calls `visit` on each direct child of `node` in source order. TemplateLiteral's quasis and expressions interleave
 * in the source; they are visited quasis first, which no pass here depends on.
 */
export function forEachChild(node: Node, visit: (child: Node, key: string) => void): void {
  const keys: ReadonlyArray<string> = VISITOR_KEYS[node.type]
  const record = node as unknown as Record<string, unknown>
  for (const key of keys) {
    const value = record[key]
    if (Array.isArray(value)) {
      for (const element of value) if (isNode(element)) visit(element, key)
    } else if (isNode(value)) {
      visit(value, key)
    }
  }
}

/**
 * Visits `root` and every node below it, parents before children, without native recursion: programs can nest
 * deeply enough that a recursive walk would overflow the host stack after meriyah itself succeeded.
 */
export function forEachNode(root: Node, visit: (node: Node) => void): void {
  const stack: Node[] = [root]
  const children: Node[] = []
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    visit(node)
    children.length = 0
    forEachChild(node, (child) => children.push(child))
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Node)
  }
}

// Array holes (`[, a]`) are null and optional children are null or undefined; anything else here is a node.
function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
}
