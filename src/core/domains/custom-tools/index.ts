export { approve, approvedHash, readApprovals, revoke } from './approvals';
export { type CustomTool, customTools, type CustomToolState, toolNameOf, TOOLS_DIR } from './registry';
