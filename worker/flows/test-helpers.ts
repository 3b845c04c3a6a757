/** Builders shared by the engine's tests (not part of the engine's API). */
import { compileFlow, type CompiledFlow } from "./engine";
import type { FlowContext, FlowEffect } from "./types";
import type { OutboundMessage } from "../channels/types";

/** Monday 6 January 2025, 12:00 UTC (09:00 in São Paulo). */
export const NOW = Date.UTC(2025, 0, 6, 12, 0, 0);

export type TestNode = { id: string; type: string; data?: Record<string, unknown> };

/** A flow document (plain JSON, as the API receives it) from nodes and [source, handle, target] edges. */
export function doc(nodes: TestNode[], edges: [string, string, string][]) {
  return {
    version: 1,
    nodes: nodes.map((node, index) => ({ id: node.id, type: node.type, position: { x: 0, y: index * 100 }, data: node.data ?? {} })),
    edges: edges.map(([source, sourceHandle, target], index) => ({ id: `e${index}`, source, sourceHandle, target })),
  };
}

/** Compiles a test flow (drafts allowed); fails the test with the problems otherwise. */
export function build(nodes: TestNode[], edges: [string, string, string][]): CompiledFlow {
  const compiled = compileFlow(doc(nodes, edges), { allowIncomplete: true });
  if (!compiled.ok) throw new Error(`flow does not compile: ${JSON.stringify(compiled.problems, null, 2)}`);
  return compiled.flow;
}

/** A context for tests; override any part. */
export function context(overrides: Partial<FlowContext> = {}): FlowContext {
  return {
    now: NOW,
    random: () => 0.5,
    contact: {
      id: "c1",
      name: "Ana Maria Souza",
      phone: "+5511999990000",
      email: "Ana@Example.com",
      document: null,
      fields: { city: "Recife", age: "30" },
      tags: ["vip"],
    },
    company: { timezone: "America/Sao_Paulo", fieldTypes: { city: "text", age: "number", birthday: "date", contact_email: "email", cpf: "document", total: "number", price: "number", score: "number" } },
    rotary: {},
    ...overrides,
  };
}

/** The messages sent, in order. */
export function sent(effects: readonly FlowEffect[]): OutboundMessage[] {
  return effects.flatMap((effect) => (effect.type === "send" ? [effect.message] : []));
}

/** The text bodies sent, in order. */
export function texts(effects: readonly FlowEffect[]): string[] {
  return sent(effects).flatMap((message) => (message.type === "text" ? [message.body] : []));
}

/** The effects of one type. */
export function ofType<T extends FlowEffect["type"]>(effects: readonly FlowEffect[], type: T): Extract<FlowEffect, { type: T }>[] {
  return effects.filter((effect): effect is Extract<FlowEffect, { type: T }> => effect.type === type);
}
