//! # pq-signer
//!
//! The signing side of pq-verifier; [`pq_crypto`] verifies, and a chain needs nothing here.
//!
//! - [`signing`]: keys of every single-key scheme from seeds (and, with `std`, Substrate secret
//!   URIs), deterministic and (with `std`) hedged signing, a transaction's key-inline signature.
//! - [`aggregator`]: a committee's members in one process — shares, proofs of possession and
//!   the two-round aggregate ML-DSA-87 signing protocol.
//!
//! ```
//! use pq_crypto::{backend::Libcrux, Purpose, Scheme};
//! use pq_signer::signing::Keypair;
//!
//! let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
//! let signature = alice.sign(b"transfer 10 to Bob", Purpose::Transaction);
//! assert!(signature
//!     .verify::<Libcrux>(&alice.public(), b"transfer 10 to Bob", Purpose::Transaction)
//!     .is_ok());
//! ```

#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod aggregator;
pub mod signing;
