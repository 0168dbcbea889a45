import { describe, expect, it } from "vitest";
import { currentStep, NO_TRACE, ProtocolTrace } from "../../src/api/shared/resolution/trace";

/*
 * The protocol trace itself: steps nest by the async context they run in (concurrent siblings included), a failing
 * step is an error span that still rethrows, and the no-op tracer records nothing and exposes no current step.
 */

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ProtocolTrace", () => {
  it("nests steps by async context, concurrent siblings under their own parent", async () => {
    const trace = new ProtocolTrace();
    await trace.step("forward-resolution", "forward-resolution", { name: "a.eth" }, async (root) => {
      await Promise.all(
        [20, 5].map((ms) =>
          trace.step("forward-resolution", "find-resolver", { ms }, async () => {
            await tick(ms);
            currentStep()!.span.event("forward-resolution", "walk-registry", `r${ms}`);
          }),
        ),
      );
      root.event("forward-resolution", "active-resolver-exists", true);
    });
    const [root] = trace.toJSON();
    expect(trace.toJSON()).toHaveLength(1);
    expect(root).toMatchObject({
      scope: "protocol-tracing",
      name: "forward-resolution:forward-resolution",
      attributes: { "ens.protocol": "forward-resolution", "ens.protocol.step": "forward-resolution", name: "a.eth" },
      status: { code: 1 },
    });
    expect(root!.parentSpanContext).toBeUndefined();
    expect(root!.events.map((e) => e.name)).toEqual(["forward-resolution:active-resolver-exists (true)"]);
    expect(root!.children.map((c) => [c.attributes.ms, c.events.map((e) => e.name)])).toEqual([
      [20, ["forward-resolution:walk-registry (r20)"]],
      [5, ["forward-resolution:walk-registry (r5)"]],
    ]);
    for (const c of root!.children) expect(c.parentSpanContext).toEqual({ traceId: root!.traceId, spanId: root!.id });
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace.toJSON());
  });

  it("marks a failing step as an error and rethrows", async () => {
    const trace = new ProtocolTrace();
    await expect(
      trace.step("reverse-resolution", "reverse-resolution", {}, async () => {
        throw new Error("not in the index\nmore");
      }),
    ).rejects.toThrow("not in the index");
    const [root] = trace.toJSON();
    expect(root!.status).toEqual({ code: 2, message: "not in the index" });
    expect(root!.events[0]).toMatchObject({
      name: "exception",
      attributes: { "exception.message": "not in the index" },
    });
  });

  it("NO_TRACE runs the step and records nothing", async () => {
    const built = ProtocolTrace.built;
    const value = await NO_TRACE.step("forward-resolution", "find-resolver", {}, async (span) => {
      span.set("x", 1);
      span.event("forward-resolution", "x", true);
      return currentStep();
    });
    expect(value).toBeUndefined();
    expect(ProtocolTrace.built).toBe(built);
  });
});
