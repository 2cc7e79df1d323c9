//! # pq-cli
//!
//! Keys, transfers, key registration and balances for any chain with pallet-pq-verifier,
//! through `pq-client` (subxt): calls and storage are found in the chain's metadata, amounts in
//! its token's decimals, so the CLI needs nothing from the runtime's source.
//!
//! ```text
//! pq-cli key generate --scheme ml-dsa-65 --output alice.json
//! pq-cli transfer --from ml-dsa-65://Alice --to <ACCOUNT> --amount 1.5
//! pq-cli register-key --key alice.json
//! pq-cli transfer --from alice.json --to <ACCOUNT> --amount 1 --form registered
//! pq-cli register-key --key eve-pq.json --from ed25519://Eve --only-registered-key
//! pq-cli transfer --from eve-pq.json --account ed25519://Eve --form registered --to <ACCOUNT> --amount 1
//! pq-cli balance <ACCOUNT>
//! pq-cli committee create --seed council --size 16 --threshold 9 --from ml-dsa-87://Alice
//! pq-cli committee transfer --seed council --size 16 --threshold 9 --signers 0,2,5,7,8,10,11,13,15 --to <ACCOUNT> --amount 1
//! ```
//!
//! See `docs/submitting.md`.

pub mod committee;
pub mod keys;

use anyhow::bail;
use clap::{Parser, Subcommand};
use polkadot_sdk::{sp_core::crypto::Ss58Codec, sp_runtime::AccountId32};
use pq_client::{
	amount::Amount,
	chain::{Call, Client, WaitFor},
	Form, Sender,
};
use pq_crypto::Scheme;
use pq_signer::signing::Keypair;
use std::{io::Write, path::PathBuf};

/// Command line of `pq-cli`.
#[derive(Debug, Parser)]
#[command(
	name = "pq-cli",
	version,
	about = "Post-quantum keys and transactions for pq-runtime chains"
)]
pub struct Cli {
	/// The node's JSON-RPC WebSocket address.
	#[arg(long, global = true, default_value = "ws://127.0.0.1:9944")]
	pub url: String,

	/// Allow an unencrypted (`ws://`) address of another host: the node supplies what is
	/// signed (call indices, genesis hash, decimals), which anyone on the network path could
	/// then change. Without it only `wss://` or loopback addresses are used.
	#[arg(long, global = true)]
	pub insecure: bool,

	#[command(subcommand)]
	pub command: Command,
}

/// What `pq-cli` does.
#[derive(Debug, Subcommand)]
pub enum Command {
	/// Key files: generate and inspect.
	#[command(subcommand)]
	Key(KeyCommand),

	/// Sends UNIT from one account to another.
	Transfer {
		/// The sender's key: a key file, or SCHEME:SURI such as `ml-dsa-65://Alice`.
		#[arg(long)]
		from: String,
		/// The recipient: SS58 address, 0x account id, or a key.
		#[arg(long)]
		to: String,
		/// How much, in the chain's token (`1.5`).
		#[arg(long, value_parser = Amount::parse)]
		amount: Amount,
		#[command(flatten)]
		options: SendOptions,
	},

	/// Registers an ML-DSA key with pallet-pq-verifier, holding a deposit.
	///
	/// Without `--from`, the key registers itself for its own account, so later transactions
	/// can use `--form registered` and leave the key out. With `--from`, that account (for
	/// example an Ed25519 one) migrates to the key, with the key's proof of possession; it then
	/// sends with `--from <KEY> --account <ACCOUNT> --form registered`.
	RegisterKey {
		/// The ML-DSA key to register.
		#[arg(long)]
		key: String,
		/// The account that registers it, if not the key's own.
		#[arg(long)]
		from: Option<String>,
		/// With `--from`: from this transaction on, only the registered key signs for the
		/// account; its old key is refused in every form.
		#[arg(long, requires = "from")]
		only_registered_key: bool,
		#[command(flatten)]
		options: SendOptions,
	},

	/// Replaces an account's registered key with another in one transaction; an account that
	/// accepts only its registered key keeps doing so, with the new key.
	RotateKey {
		/// The new ML-DSA key.
		#[arg(long)]
		key: String,
		/// The key that signs: the account's current registered key with `--account <ACCOUNT>
		/// --form registered`, or the account's own key.
		#[arg(long)]
		from: String,
		/// From this transaction on, only the new key signs for the account (it must not be the
		/// key the account is derived from): the key rotated away from is refused in every form
		/// at once.
		#[arg(long)]
		only_registered_key: bool,
		#[command(flatten)]
		options: SendOptions,
	},

	/// Sets whether only a migrated account's registered key signs for it.
	SetOnlyRegisteredKey {
		/// The key that signs: the account's old key, or its registered key with
		/// `--account <ACCOUNT> --form registered`.
		#[arg(long)]
		from: String,
		/// Accept the account's other keys again.
		#[arg(long)]
		disable: bool,
		#[command(flatten)]
		options: SendOptions,
	},

	/// Aggregate ML-DSA-87 committees, every member simulated in this process (dev chains and
	/// demos: anyone with the seed can sign for the committee).
	#[command(subcommand)]
	Committee(CommitteeCommand),

	/// Prints an account's balance, nonce and registered key.
	Balance {
		/// SS58 address, 0x account id, or a key.
		account: String,
	},
}

/// Key-file commands.
#[derive(Debug, Subcommand)]
pub enum KeyCommand {
	/// Generates a key and writes it to a new key file (never overwriting one).
	Generate {
		/// `ed25519`, `ml-dsa-44`, `ml-dsa-65` or `ml-dsa-87`.
		#[arg(long, value_parser = keys::parse_scheme)]
		scheme: Scheme,
		/// Where to write the key file.
		#[arg(long)]
		output: PathBuf,
	},
	/// Prints a key's scheme, account and public key.
	Inspect {
		/// A key file, or SCHEME:SURI.
		key: String,
	},
}

/// Committee commands.
#[derive(Debug, Subcommand)]
pub enum CommitteeCommand {
	/// Prints the committee's id, account and what its signatures cost on the wire.
	Inspect {
		#[command(flatten)]
		committee: committee::CommitteeArgs,
	},
	/// Creates the committee on chain with every member's share and proof of possession; the
	/// sender holds the deposit and may dissolve it.
	Create {
		#[command(flatten)]
		committee: committee::CommitteeArgs,
		/// The creator's key.
		#[arg(long)]
		from: String,
		#[command(flatten)]
		options: SendOptions,
	},
	/// Sends UNIT from the committee's account with one aggregate signature by `--signers`.
	Transfer {
		#[command(flatten)]
		committee: committee::CommitteeArgs,
		/// Member indices that sign (`0,3,7`), or `all`; at least the threshold.
		#[arg(long)]
		signers: String,
		/// The recipient: SS58 address, 0x account id, or a key.
		#[arg(long)]
		to: String,
		/// How much, in the chain's token (`1.5`).
		#[arg(long, value_parser = Amount::parse)]
		amount: Amount,
		#[command(flatten)]
		delivery: Delivery,
	},
}

/// How a transaction is signed and followed.
#[derive(Debug, clap::Args)]
pub struct SendOptions {
	/// `key-inline`: the key travels in the transaction (for Ed25519, the account is the key).
	/// `registered`: signed by the account's registered key, 1.3–2.6 KB smaller.
	#[arg(long, value_enum, default_value_t = FormArg::KeyInline)]
	pub form: FormArg,
	/// The account sending, when it is not the key's own: an account that migrated to the key
	/// (SS58 address, 0x account id, or its old key). Only with `--form registered`.
	#[arg(long)]
	pub account: Option<String>,
	#[command(flatten)]
	pub delivery: Delivery,
}

/// What a transaction pays on top and how it is followed.
#[derive(Debug, clap::Args)]
pub struct Delivery {
	/// Tip for the block author, in the chain's token.
	#[arg(long, default_value = "0", value_parser = Amount::parse)]
	pub tip: Amount,
	/// How long to follow the transaction.
	#[arg(long, value_enum, default_value_t = WaitArg::Finalized)]
	pub wait: WaitArg,
	/// Print the signed transaction as hex instead of submitting it, for sending it by hand
	/// (`author_submitExtrinsic`).
	#[arg(long)]
	pub print_only: bool,
}

/// [`WaitFor`], as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WaitArg {
	/// Return once the pool accepted it.
	Pool,
	/// Return once it is in a block.
	InBlock,
	/// Return once that block is final.
	Finalized,
}

impl From<WaitArg> for WaitFor {
	fn from(wait: WaitArg) -> Self {
		match wait {
			WaitArg::Pool => WaitFor::Pool,
			WaitArg::InBlock => WaitFor::InBlock,
			WaitArg::Finalized => WaitFor::Finalized,
		}
	}
}

/// [`Form`], as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormArg {
	/// [`Form::KeyInline`].
	KeyInline,
	/// [`Form::KeyRegistered`].
	Registered,
}

impl From<FormArg> for Form {
	fn from(form: FormArg) -> Self {
		match form {
			FormArg::KeyInline => Form::KeyInline,
			FormArg::Registered => Form::KeyRegistered,
		}
	}
}

/// Runs `cli`, writing what it reports to `out`.
pub async fn run(cli: Cli, out: &mut impl Write) -> anyhow::Result<()> {
	let node_address = NodeAddress { url: cli.url, insecure: cli.insecure };
	match cli.command {
		Command::Key(KeyCommand::Generate { scheme, output }) => {
			let (keypair, file) = keys::generate(scheme)?;
			keys::write_key_file(&output, &file)?;
			writeln!(out, "{} key written to {}", scheme.name(), output.display())?;
			writeln!(out, "account: {}", keypair.account_id().to_ss58check())?;
		},
		Command::Key(KeyCommand::Inspect { key }) => {
			let keypair = keys::load(&key)?;
			let public = keypair.public();
			writeln!(out, "scheme: {}", keypair.scheme().name())?;
			writeln!(out, "account: {}", keypair.account_id().to_ss58check())?;
			writeln!(out, "account id: 0x{}", hex::encode(keypair.account_id()))?;
			let bytes = public.key_bytes();
			writeln!(out, "public key ({} bytes): 0x{}", bytes.len(), hex::encode(bytes))?;
		},
		Command::Transfer { from, to, amount, options } => {
			let sender = keys::load(&from)?;
			let node = connect(&node_address).await?;
			let (to, what) = transfer(&node, &to, &amount).await?;
			let call = node.calls().transfer(&to, what.value);
			send(&node, &sender, &call, &what.text, &options, out).await?;
		},
		Command::RegisterKey { key, from, only_registered_key, options } => {
			let key = keys::load(&key)?;
			if key.scheme() == Scheme::Ed25519 {
				bail!("only ML-DSA keys are registered; an Ed25519 account is its key already");
			}
			let migrating_account = from.map(|from| keys::load(&from)).transpose()?;
			let sender = migrating_account.as_ref().unwrap_or(&key);
			let node = connect(&node_address).await?;
			let call = node.calls().register_key(&key, &sender.account_id(), only_registered_key);
			send(&node, sender, &call, "register_key", &options, out).await?;
		},
		Command::RotateKey { key, from, only_registered_key, options } => {
			let key = keys::load(&key)?;
			let sender = keys::load(&from)?;
			let account = sending_account(&sender, &options)?;
			let node = connect(&node_address).await?;
			let call = node.calls().rotate_key(&key, &account, only_registered_key);
			send(&node, &sender, &call, "rotate_key", &options, out).await?;
		},
		Command::SetOnlyRegisteredKey { from, disable, options } => {
			let sender = keys::load(&from)?;
			let node = connect(&node_address).await?;
			let call = node.calls().set_only_registered_key(!disable);
			send(&node, &sender, &call, "set_only_registered_key", &options, out).await?;
		},
		Command::Committee(CommitteeCommand::Inspect { committee }) => {
			let committee = committee.committee()?;
			let account = committee::account(&committee);
			writeln!(out, "committee: 0x{}", hex::encode(committee.id()))?;
			writeln!(out, "account: {}", account.to_ss58check())?;
			writeln!(out, "account id: 0x{}", hex::encode(&account))?;
			writeln!(out, "members: {}, threshold: {}", committee.size(), committee.threshold())?;
			let signers = committee.signers(0..committee.size()).expect("every member");
			let wire = codec::Encode::encoded_size(&committee.id())
				+ codec::Encode::encoded_size(&signers)
				+ pq_crypto::keys::MlDsa87Signature::LEN;
			writeln!(out, "signature on the wire: {wire} bytes (aggregate with signer bits)")?;
		},
		Command::Committee(CommitteeCommand::Create { committee, from, options }) => {
			let committee = committee.committee()?;
			let sender = keys::load(&from)?;
			writeln!(
				out,
				"committee 0x{}, account {}",
				hex::encode(committee.id()),
				committee::account(&committee).to_ss58check()
			)?;
			let node = connect(&node_address).await?;
			let owner = sending_account(&sender, &options)?;
			let call = node.calls().create_committee(&committee, &owner);
			send(&node, &sender, &call, "create_committee", &options, out).await?;
		},
		Command::Committee(CommitteeCommand::Transfer {
			committee,
			signers,
			to,
			amount,
			delivery,
		}) => {
			let committee = committee.committee()?;
			let signers = committee::signers(&committee, &signers)?;
			let node = connect(&node_address).await?;
			let (to, what) = transfer(&node, &to, &amount).await?;
			let call = node.calls().transfer(&to, what.value);
			let sender = Sender::Committee { committee: &committee, signers: &signers };
			let description = format!(
				"{} from {} (committee, {} of {} members signed)",
				what.text,
				sender.account().to_ss58check(),
				signers.count(),
				committee.size()
			);
			deliver(&node, sender, &call, Form::Committee, &description, &delivery, out).await?;
		},
		Command::Balance { account } => {
			let account = keys::account(&account)?;
			let node = connect(&node_address).await?;
			let token = node.token();
			let info = node.account(&account).await?;
			writeln!(out, "account: {}", account.to_ss58check())?;
			writeln!(out, "free: {}", token.format(info.data.free))?;
			writeln!(out, "reserved or held: {}", token.format(info.data.reserved))?;
			writeln!(out, "nonce: {}", info.nonce)?;
			match node.registered_key(&account).await? {
				Some(registered) => writeln!(
					out,
					"registered key: {} ({}{}deposit {})",
					registered.key.scheme().name(),
					if registered.migrated { "migrated, " } else { "" },
					if node.only_registered_key(&account).await? { "only key, " } else { "" },
					token.format(registered.deposit)
				)?,
				None => writeln!(out, "registered key: none")?,
			}
		},
	}
	Ok(())
}

/// A transfer's value in the chain's smallest unit, and how it reads: the amount in the
/// chain's token and in that unit, and the recipient — printed before the transaction goes out,
/// since the token's decimals come from the node.
struct Transfer {
	value: u128,
	text: String,
}

/// The recipient named by `to` and the transfer of `amount` to it.
async fn transfer(
	node: &Client,
	to: &str,
	amount: &Amount,
) -> anyhow::Result<(AccountId32, Transfer)> {
	let to = keys::account(to)?;
	let token = node.token();
	let value = amount.in_smallest_unit(token)?;
	let text = format!(
		"transfer of {} ({value} in its smallest unit) to {}",
		token.format(value),
		to.to_ss58check()
	);
	Ok((to, Transfer { value, text }))
}

/// Where the node is, and whether an unencrypted address of another host is allowed.
struct NodeAddress {
	url: String,
	insecure: bool,
}

/// Connects to the node: `--insecure` allows an unencrypted address of another host.
async fn connect(address: &NodeAddress) -> anyhow::Result<Client> {
	if address.insecure {
		Client::connect_insecure(&address.url).await
	} else {
		Client::connect(&address.url).await
	}
}

/// The account a transaction signed by `sender` is from: `--account`, or the key's own.
fn sending_account(sender: &Keypair, options: &SendOptions) -> anyhow::Result<AccountId32> {
	match &options.account {
		None => Ok(sender.account_id()),
		Some(_) if options.form != FormArg::Registered =>
			bail!("--account needs --form registered: only a registered key signs for an account it does not derive"),
		Some(account) => keys::account(account),
	}
}

/// Signs `call` from `sender` (or the account it is registered for, `--account`) in the form
/// `options` name, submits it and follows it as they say.
async fn send(
	node: &Client,
	sender: &Keypair,
	call: &Call,
	what: &str,
	options: &SendOptions,
	out: &mut impl Write,
) -> anyhow::Result<()> {
	let account = sending_account(sender, options)?;
	let signer = if account == sender.account_id() {
		Sender::Key(sender)
	} else {
		Sender::Migrated { account: &account, key: sender }
	};
	let form = clap::ValueEnum::to_possible_value(&options.form).expect("every form has a name");
	let description = format!(
		"{what} from {} ({}, {})",
		account.to_ss58check(),
		sender.scheme().name(),
		form.get_name()
	);
	deliver(node, signer, call, options.form.into(), &description, &options.delivery, out).await
}

/// Signs `call` from `sender` in `form` with the account's next nonce and the tip of
/// `delivery`; prints it, or submits it and follows it as `delivery` says.
async fn deliver(
	node: &Client,
	sender: Sender<'_>,
	call: &Call,
	form: Form,
	description: &str,
	delivery: &Delivery,
	out: &mut impl Write,
) -> anyhow::Result<()> {
	let token = node.token();
	let tip = delivery.tip.in_smallest_unit(token)?;
	let signed = node.sign(sender, call, form, tip).await?;
	// What was signed is said before it is sent, the tip too: it is converted with the node's
	// decimals like the amount.
	let description = match tip {
		0 => description.to_owned(),
		tip => format!("{description}, tip {} ({tip} in its smallest unit)", token.format(tip)),
	};
	if delivery.print_only {
		// The hex alone on standard output, for piping; what it is on standard error.
		eprintln!("{description}");
		writeln!(out, "0x{}", hex::encode(signed.encoded()))?;
		return Ok(());
	}
	writeln!(out, "{description}")?;
	node.submit(&signed, delivery.wait.into(), out).await?;
	Ok(())
}
