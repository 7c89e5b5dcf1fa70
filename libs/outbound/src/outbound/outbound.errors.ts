// Errors the signer's callers map to their own answers (held, awaiting_funds, 409 …).

/** The request cannot become a transfer (unknown rail, bad address, nothing to send …). */
export class OutboundRequestError extends Error {}

export class OutboundNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`No outbound transfer ${id}.`);
  }
}

/** A second plan for the same sweep or refund that asks for something else. */
export class OutboundConflictError extends Error {}

/** Only a transfer nothing was signed for can be cancelled. */
export class OutboundNotCancellableError extends Error {}
