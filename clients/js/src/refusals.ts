// Why a node refused a transaction, named.

/** The pallet's reasons (`PqInvalidTransaction`), which the node reports as `Custom error:
 * <code>`; docs/wire-format-vectors.json lists them from the Rust enum. */
export const PQ_REFUSALS: Readonly<Record<number, string>> = {
  1: 'NoRegisteredKey',
  2: 'SchemeMismatch',
  3: 'OnlyRegisteredKey',
  4: 'InvalidKey',
  6: 'UnknownCommittee',
  7: 'InvalidSigners',
  8: 'BelowThreshold',
  9: 'Undecodable',
  /** An sr25519 or ECDSA signature: keys a discrete logarithm breaks are never accepted. */
  10: 'ClassicalSignature',
  /** A general (v5) transaction: this runtime takes only signed (v4) extrinsics. */
  11: 'GeneralTransaction',
};

/** A node's refusal message with the pallet's code named: `… Custom error: 1` gains
 * `(NoRegisteredKey)`; other messages are returned as they are. */
export function nameRefusal(message: string): string {
  return message.replace(/Custom error: (\d+)/, (custom, code: string) => {
    const name = PQ_REFUSALS[Number(code)];
    return name ? `${custom} (${name})` : custom;
  });
}
