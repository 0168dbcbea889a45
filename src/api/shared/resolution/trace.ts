import { AsyncLocalStorage } from "node:async_hooks";

/*
 * The protocol trace of a resolution, in the peer's (ENSNode's) shape: a list of root spans, each
 * `{ scope, id, traceId, parentSpanContext, name, timestamp, duration, attributes, status, events, children }`, span
 * names `<protocol>:<step>`, attributes `ens.protocol` and `ens.protocol.step`, events `<protocol>:<step> (<result>)`
 * with `ens.protocol.step.result`; times in microseconds, status codes as OpenTelemetry's (1 ok, 2 error).
 *
 * A resolution is given a tracer explicitly: `NO_TRACE` (the default) runs each step's function and records nothing,
 * so an answer nobody asked a trace of costs no allocation. Under a `ProtocolTrace`, the step being run is kept in
 * async-local storage, so that work several calls down (a registry walk, a CCIP-Read gateway request made inside
 * viem) can report to the step it belongs to without every function taking a span argument.
 */

export const FORWARD_RESOLUTION = "forward-resolution";
export const REVERSE_RESOLUTION = "reverse-resolution";
export type TracedProtocol = typeof FORWARD_RESOLUTION | typeof REVERSE_RESOLUTION;

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;
/** A step's attributes, or a function giving them when one costs work (run only while a trace is built). */
export type LazyAttributes = Attributes | (() => Attributes);

/** One span of the trace, as the peer serializes it. */
export interface TraceNode {
  scope: "protocol-tracing";
  id: string;
  traceId: string;
  parentSpanContext?: { traceId: string; spanId: string };
  name: string;
  timestamp: number;
  duration: number;
  attributes: Attributes;
  status: { code: number; message?: string };
  events: { name: string; attributes: Attributes; time: number }[];
  children: TraceNode[];
}

/** What a step may add while it runs. */
export interface StepSpan {
  /** False under NO_TRACE: lets a caller skip building what it would record. */
  readonly recording: boolean;
  set(key: string, value: AttributeValue | undefined): void;
  /** An outcome of the step, as the peer's step events: `<protocol>:<step> (<result>)`. */
  event(protocol: TracedProtocol, step: string, result: AttributeValue, attributes?: Attributes): void;
}

export interface Tracer {
  step<T>(
    protocol: TracedProtocol,
    step: string,
    attributes: LazyAttributes,
    run: (span: StepSpan) => Promise<T>,
  ): Promise<T>;
}

const NO_SPAN: StepSpan = { recording: false, set() {}, event() {} };

/** Records nothing: the tracer of every resolution nobody asked a trace of. */
export const NO_TRACE: Tracer = { step: (_protocol, _step, _attributes, run) => run(NO_SPAN) };

const microseconds = () => Math.round(performance.timeOrigin * 1000 + performance.now() * 1000);

class Span implements StepSpan {
  readonly recording = true;
  readonly node: TraceNode;

  constructor(
    readonly trace: ProtocolTrace,
    id: string,
    parent: Span | undefined,
    name: string,
    attributes: Attributes,
  ) {
    this.node = {
      scope: "protocol-tracing",
      id,
      traceId: trace.traceId,
      ...(parent ? { parentSpanContext: { traceId: trace.traceId, spanId: parent.node.id } } : {}),
      name,
      timestamp: microseconds(),
      duration: 0,
      attributes: { ...attributes },
      status: { code: 1 },
      events: [],
      children: [],
    };
  }

  set(key: string, value: AttributeValue | undefined): void {
    if (value !== undefined) this.node.attributes[key] = value;
  }

  event(protocol: TracedProtocol, step: string, result: AttributeValue, attributes: Attributes = {}): void {
    this.node.events.push({
      name: `${protocol}:${step} (${result})`,
      attributes: {
        "ens.protocol": protocol,
        "ens.protocol.step": step,
        "ens.protocol.step.result": result,
        ...attributes,
      },
      time: microseconds(),
    });
  }

  end(error?: unknown): void {
    this.node.duration = microseconds() - this.node.timestamp;
    if (error !== undefined) {
      const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
      this.node.status = { code: 2, message };
      this.node.events.push({
        name: "exception",
        attributes: {
          "exception.type": error instanceof Error ? error.name : typeof error,
          "exception.message": message,
        },
        time: microseconds(),
      });
    }
  }
}

const activeSpan = new AsyncLocalStorage<Span>();

/** The trace of one resolution (or several, each a root), built while it runs; `toJSON()` is the answer's `trace`. */
export class ProtocolTrace implements Tracer {
  /** How many traces this process has built: a request that did not ask for one must leave it unchanged. */
  static built = 0;
  readonly traceId = `trace-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly roots: TraceNode[] = [];
  private spans = 0;

  constructor() {
    ProtocolTrace.built++;
  }

  step<T>(
    protocol: TracedProtocol,
    step: string,
    attributes: LazyAttributes,
    run: (span: StepSpan) => Promise<T>,
  ): Promise<T> {
    const current = activeSpan.getStore();
    const parent = current?.trace === this ? current : undefined;
    const span = new Span(this, `span-${++this.spans}`, parent, `${protocol}:${step}`, {
      "ens.protocol": protocol,
      "ens.protocol.step": step,
      ...(typeof attributes === "function" ? attributes() : attributes),
    });
    (parent ? parent.node.children : this.roots).push(span.node);
    return activeSpan.run(span, async () => {
      try {
        const result = await run(span);
        span.end();
        return result;
      } catch (error) {
        span.end(error);
        throw error;
      }
    });
  }

  toJSON(): TraceNode[] {
    return this.roots;
  }
}

/**
 * The step the caller runs inside when a trace is being built, else undefined (then nothing is recorded). For work
 * that reports to whatever step reached it: a registry walk, a CCIP-Read request.
 */
export function currentStep(): { span: StepSpan; trace: Tracer } | undefined {
  const span = activeSpan.getStore();
  return span && { span, trace: span.trace };
}
