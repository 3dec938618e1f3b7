// The kernel's one canonical JSON, for front ends that see only the contract (the renderer's journal merge).
export { canonicalJson } from '../../core/agent/canonical-json.ts';
