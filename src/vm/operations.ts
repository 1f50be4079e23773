/**
 * What the run loop's instructions use beyond a few lines. All of it is engine-independent and lives in the
 * runtime, shared with the tree-walker (src/interpreter): property access fast paths and reference Tasks
 * (runtime/references.ts), iteration steps (runtime/iterator-steps.ts), for-in (runtime/for-in.ts), template
 * objects (runtime/template-object.ts), function objects (runtime/function-create.ts) and private names
 * (runtime/class-elements.ts). This module re-exports them for the VM's instructions.
 */
export { PrivateElementAdd, PrivateGetFast, PrivateSetFast } from "../runtime/class-elements.ts"
export { ForInIteratorOf, ForInNext } from "../runtime/for-in.ts"
export { CreateArgumentsObject, MakeFunction, SetFunctionName } from "../runtime/function-create.ts"
export {
  continueTask,
  FastArrayRecord,
  fastArrayRecord,
  IteratorCloseForThrow,
  IteratorCloseIfNotDone,
  IteratorRest,
  iteratorStepFast,
} from "../runtime/iterator-steps.ts"
export {
  getFast,
  getIndexFast,
  GetValueTask,
  MISS,
  type Miss,
  propertyKeyFast,
  PutValueTask,
  setFast,
  setIndexFast,
} from "../runtime/references.ts"
export { CreateTemplateObject } from "../runtime/template-object.ts"
