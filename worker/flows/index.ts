/**
 * The flow engine's public API (DESIGN.md "The flow engine"). Pure: imports nothing of the worker
 * runtime, so the editor's test run imports this module as it is.
 */
export * from "./types";
export { compileFlow, initialRunState, startRun, step, applyContactEffects, applyRotaryEffects, type CompiledFlow, type CompileResult } from "./engine";
export { choiceReplyId, foldText } from "./executors/waiting";
export { checkPublicHttpUrl, isPublicHttpUrl, isPublicIpAddress, type UrlRefusal } from "./url-guard";
export { hashPixelUserData, normalizePixelEmail, normalizePixelName, normalizePixelPhone, pixelUserData } from "./pixel";
export { buildLinearFlow, runSyntheticFlow, syntheticContext, type SyntheticRunReport } from "./bench";
