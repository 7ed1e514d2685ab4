export { bootstrapKnowledge, DEFAULTS as BOOTSTRAP_DEFAULTS, type BootstrapOptions, type BootstrapResult, type BootstrapRun, type DimensionResult } from './run';
export { dimensionGuides, type DimensionGuide } from './guides';
export { CORE_DIMENSIONS, type CandidateDraft } from './types';
export { LANGUAGE_DIMENSIONS } from './dimensions/language';
