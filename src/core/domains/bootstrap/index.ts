export { LANGUAGE_DIMENSIONS } from './dimensions/language';
export { type DimensionGuide, dimensionGuides } from './guides';
export {
  bootstrapKnowledge,
  type BootstrapOptions,
  type BootstrapResult,
  type BootstrapRun,
  DEFAULTS as BOOTSTRAP_DEFAULTS,
  type DimensionResult,
} from './run';
export { type CandidateDraft, CORE_DIMENSIONS } from './types';
