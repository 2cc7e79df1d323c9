// What a transaction's key signs: the forms, the purpose each signs for, the signing payload
// (hashed when long) and the statement. One module that both the keys and the transaction
// builder use, so that only a checked payload is ever signed for a transaction purpose.

import { blake2_256, concat } from './scale.js';
import type { Purpose } from './schemes.js';

/** How a transaction proves who sent it: the key travels with the signature (`key-inline`), or
 * the account's registered key signed (`registered`). Committees sign with pq-cli. */
export type Form = 'key-inline' | 'registered';
export const FORMS: readonly Form[] = Object.freeze(['key-inline', 'registered']);

/** The purpose (FIPS 204 context; for Ed25519, a prefix) each form's statement is signed for. */
export const FORM_PURPOSES: Readonly<Record<Form, Purpose>> = Object.freeze({
  'key-inline': 'transaction',
  registered: 'transactionKeyRegistered',
});

/** Longer payloads are signed as their `blake2_256`, as every Substrate runtime does. */
const MAX_UNHASHED_PAYLOAD = 256;

/** What of `payload` is signed: the payload, or its `blake2_256` when longer than 256 bytes.
 * A payload no longer than a hash is refused: it could be the hash of another, long payload,
 * which is signed as exactly those bytes (a real one, with its chain's implicit data, is over
 * 70 bytes). */
export function signingPayload(payload: Uint8Array): Uint8Array {
  if (payload.length <= 32) throw new Error('pq-verifier keys sign transactions only: a payload as short as a hash is none');
  return payload.length > MAX_UNHASHED_PAYLOAD ? blake2_256(payload) : payload;
}

/** The message a form signs: the signing payload (key inline: the key names the account), or
 * `account ‖ signing payload` (registered: one key may be registered for several accounts). */
export function transactionStatement(form: Form, account: Uint8Array, signingPayload: Uint8Array): Uint8Array {
  return form === 'key-inline' ? signingPayload : concat(account, signingPayload);
}

/** Refuses a form this package does not sign. */
export function checkForm(form: Form): void {
  if (!FORMS.includes(form)) throw new TypeError(`unknown form: one of ${FORMS.join(', ')}`);
}
