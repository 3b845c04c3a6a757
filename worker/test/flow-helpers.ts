/**
 * Helpers for the flow builder and flow engine tests: flow documents from compact node and edge
 * lists, and creating, drafting and publishing builders through the API.
 */
import type { FlowAnswer, PublishAnswer } from "../../schema/flow-api";
import { call, expectStatus } from "./helpers";

export type TestNode = { id: string; type: string; data?: Record<string, unknown> };

/** A flow document (plain JSON as the editor sends it) from nodes and [source, handle, target] edges. */
export function flowDoc(nodes: TestNode[], edges: [string, string, string][]) {
  return {
    version: 1,
    nodes: [{ id: "start", type: "start" }, ...nodes].map((node, index) => ({ id: node.id, type: node.type, position: { x: 0, y: index * 100 }, data: node.data ?? {} })),
    edges: edges.map(([source, sourceHandle, target], index) => ({ id: `e${index}`, source, sourceHandle, target })),
  };
}

/** POST /api/flows (201 asserted). */
export async function createFlow(token: string, body: Record<string, unknown> = {}): Promise<FlowAnswer> {
  return expectStatus<FlowAnswer>(await call("POST", "/api/flows", { token, body: { name: "Atendimento", type: "default", ...body } }), 201);
}

/** Creates a builder with `draft` and publishes it; answers the builder and its version. */
export async function publishedFlow(token: string, draft: unknown, name = "Bot"): Promise<{ flow: FlowAnswer; version: number }> {
  const flow = await createFlow(token, { name });
  await expectStatus(await call("PUT", `/api/flows/${flow.id}`, { token, body: { draft } }), 200);
  const published = await expectStatus<PublishAnswer>(await call("POST", `/api/flows/${flow.id}/publish`, { token }), 200);
  return { flow, version: published.version };
}

/** Sets a connection's default flow (and optionally its media flow). */
export async function setDefaultFlow(token: string, connectionId: string, defaultFlowId: string | null, mediaFlowId: string | null = null): Promise<void> {
  await expectStatus(await call("PUT", "/api/companies/default-flows", { token, body: { channelId: connectionId, defaultFlowId, mediaFlowId } }), 200);
}
