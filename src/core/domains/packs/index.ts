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
export { type CreateOptions, createPack } from './create';
export { PACK_MANIFEST, PACKS_FILE, PACKS_STATE_DIR } from './layout';
export { loadPacks, packOf, type PackProblem, type PacksState } from './load';
