export { createPack, type CreateOptions } from './create';
export {
  addPack,
  installPacks,
  listPacks,
  type PackListEntry,
  type PackSummary,
  removePack,
  setItemDisabled,
  updatePacks,
  type UpdateResult,
} from './commands';
export { loadPacks, packOf, type PackProblem, type PacksState } from './load';
export { PACK_MANIFEST, PACKS_FILE, PACKS_STATE_DIR } from './layout';
