//! # pq-client
//!
//! A Rust client for any chain with pallet-pq-verifier, built on [subxt](https://docs.rs/subxt):
//!
//! - [`chain`]: connects to a node, reads accounts and the pallet's registry, builds the
//!   pallet's calls and transfers from the chain's metadata, signs them in every [`Form`] and
//!   submits them, following them into blocks with their events — for whatever runtime the
//!   pallet is in, named whatever it is named there;
//! - [`sender`]: who signs in which form, and the one function turning a transaction's signing
//!   payload into its [`pq_crypto::TransactionSignature`];
//! - [`refusal`]: a node's refusal with the pallet's reasons named;
//! - [`amount`]: amounts in UNIT (12 decimals) as text.
//!
//! ```no_run
//! # async fn transfer() -> anyhow::Result<()> {
//! use pq_client::{chain::{Client, WaitFor}, Form, Sender};
//! use pq_crypto::Scheme;
//! use pq_signer::signing::Keypair;
//!
//! let alice = Keypair::from_suri(Scheme::MlDsa65, "//Alice").expect("a dev key");
//! let bob = Keypair::from_suri(Scheme::MlDsa44, "//Bob").expect("a dev key");
//! let client = Client::connect("ws://127.0.0.1:9944").await?;
//! let call = client.calls().transfer(&bob.account_id(), 1_000_000_000_000);
//! let signed = client.sign(Sender::Key(&alice), &call, Form::KeyInline, 0).await?;
//! client.submit(&signed, WaitFor::Finalized, &mut std::io::stdout()).await?;
//! # Ok(())
//! # }
//! ```

pub mod amount;
pub mod chain;
pub mod refusal;
pub mod sender;

pub use sender::{Form, Randomness, Sender, SignError};
