/**
 * Keeps one endpoint from taking every delivery slot of a worker (issue 4: "one failing endpoint
 * never delays another"):
 * - an endpoint holds at most `perEndpoint` slots (half the worker's concurrency); beyond that
 *   a delivery waits here for one of its slots while the endpoint is answering fast;
 * - an endpoint is "struggling" once an attempt fails, or runs longer than `slowMs`; it then holds
 *   at most `strugglingSlots`, and deliveries beyond that are put back in the queue for a moment
 *   (`acquire` answers null) instead of waiting, so they hold no slot at all;
 * - one fast success makes it healthy again.
 * Per process: with several workers, each applies it to its own slots.
 */
export interface GateSlot {
  readonly endpointId: string;
}

interface Lane {
  inFlight: number;
  waiters: Array<(slot: GateSlot | null) => void>;
  struggling: boolean;
}

export interface EndpointGateOptions {
  perEndpoint: number;
  strugglingSlots: number;
  slowMs: number;
}

export class EndpointGate {
  private readonly lanes = new Map<string, Lane>();
  private stopped = false;

  constructor(private readonly opts: EndpointGateOptions) {}

  /** A slot, or null: the endpoint is struggling and has its share; put the delivery back. */
  acquire(endpointId: string): Promise<GateSlot | null> {
    if (this.stopped) return Promise.resolve(null);
    const lane = this.lane(endpointId);
    const limit = lane.struggling ? this.opts.strugglingSlots : this.opts.perEndpoint;
    if (lane.inFlight < limit) return Promise.resolve(this.start(endpointId, lane));
    if (lane.struggling) return Promise.resolve(null);
    return new Promise((resolve) => lane.waiters.push(resolve));
  }

  release(slot: GateSlot, ok: boolean, durationMs: number): void {
    const lane = this.lane(slot.endpointId);
    const live = slot as LiveSlot;
    clearTimeout(live.timer);
    live.done = true;
    lane.inFlight--;
    if (ok && durationMs < this.opts.slowMs) lane.struggling = false;
    else this.markStruggling(slot.endpointId, lane);
    if (!lane.struggling && lane.waiters.length && lane.inFlight < this.opts.perEndpoint) {
      lane.waiters.shift()?.(this.start(slot.endpointId, lane));
    }
    if (!lane.inFlight && !lane.waiters.length && !lane.struggling) this.lanes.delete(slot.endpointId);
  }

  /** The process is stopping: every delivery waiting for one of its endpoint's slots gets null now. */
  stop(): void {
    this.stopped = true;
    for (const lane of this.lanes.values()) for (const w of lane.waiters.splice(0)) w(null);
  }

  isStruggling(endpointId: string): boolean {
    return this.lanes.get(endpointId)?.struggling ?? false;
  }

  private start(endpointId: string, lane: Lane): GateSlot {
    lane.inFlight++;
    const slot: LiveSlot = { endpointId, done: false, timer: undefined };
    // Still running after slowMs: the endpoint is struggling now, not only when this attempt ends.
    slot.timer = setTimeout(() => {
      if (!slot.done) this.markStruggling(endpointId, lane);
    }, this.opts.slowMs);
    slot.timer.unref();
    return slot;
  }

  /** Waiting deliveries go back to the queue: a struggling endpoint gets no more than its share. */
  private markStruggling(endpointId: string, lane: Lane): void {
    lane.struggling = true;
    const waiters = lane.waiters.splice(0);
    for (const w of waiters) w(null);
    if (!this.lanes.has(endpointId)) this.lanes.set(endpointId, lane);
  }

  private lane(endpointId: string): Lane {
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = { inFlight: 0, waiters: [], struggling: false };
      this.lanes.set(endpointId, lane);
    }
    return lane;
  }
}

interface LiveSlot extends GateSlot {
  done: boolean;
  timer: NodeJS.Timeout | undefined;
}
