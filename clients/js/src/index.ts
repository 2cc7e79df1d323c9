// @pq-verifier/client: keys, accounts and the transaction forms of a pq-verifier chain.
// polkadot-api and polkadot.js adapters: '@pq-verifier/client/papi', '@pq-verifier/client/polkadot-js'.

export { NON_CANONICAL_BIT, decodesAsEdwardsPoint, deriveAccountId } from './account.js';
export { DEV_PHRASE, Keypair, SecretUriError, accountIdOf, ss58Decode, ss58Encode, verify, type SignOptions } from './keys.js';
export {
  FORMS,
  FORM_PURPOSES,
  MORTAL_PERIOD,
  TransactionError,
  buildTransaction,
  extensionsFor,
  mortalEra,
  senderAccount,
  signingPayload,
  transactionPayload,
  transactionSignature,
  transactionStatement,
  type ChainState,
  type Extension,
  type Form,
  type Sender,
  type TransactionOptions,
} from './extrinsic.js';
export {
  FACTS,
  MAX_DESCRIBED_ARRAY,
  PURPOSES,
  SCHEMES,
  SS58_PREFIX,
  inDescribedPieces,
  type Purpose,
  type Scheme,
  type SchemeFacts,
} from './schemes.js';
export { assertSecureEndpoint, isSecureEndpoint } from './endpoint.js';
export { blake2_256, compact, concat } from './scale.js';
export { PQ_REFUSALS, nameRefusal } from './refusals.js';
