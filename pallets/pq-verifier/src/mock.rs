//! A test runtime: System, Balances (with holds) and this pallet verifying with libcrux.

use crate as pallet_pq_verifier;
use polkadot_sdk::{
	frame_support::{
		derive_impl,
		dispatch::DispatchInfo,
		parameter_types,
		traits::{ConstU128, ConstU32},
		weights::Weight,
	},
	frame_system, pallet_balances,
	sp_runtime::{
		transaction_validity::{InvalidTransaction, TransactionValidityError},
		AccountId32, BuildStorage,
	},
};

/// The test runtime's extrinsic: the pallet's, with accounts as addresses.
#[docify::export(extrinsic_type)]
pub type Extrinsic = pallet_pq_verifier::Extrinsic<Test, AccountId32, TxExtension>;

type Block = polkadot_sdk::sp_runtime::generic::Block<
	polkadot_sdk::sp_runtime::generic::Header<u64, polkadot_sdk::sp_runtime::traits::BlakeTwo256>,
	Extrinsic,
>;
/// Balance of the test runtime.
pub type Balance = u128;

polkadot_sdk::frame_support::construct_runtime!(
	pub enum Test {
		System: frame_system,
		Balances: pallet_balances,
		PqVerifier: pallet_pq_verifier,
	}
);

#[derive_impl(frame_system::config_preludes::TestDefaultConfig)]
impl frame_system::Config for Test {
	type Block = Block;
	type AccountId = AccountId32;
	type Lookup = polkadot_sdk::sp_runtime::traits::IdentityLookup<AccountId32>;
	type AccountData = pallet_balances::AccountData<Balance>;
}

#[derive_impl(pallet_balances::config_preludes::TestDefaultConfig)]
impl pallet_balances::Config for Test {
	type Balance = Balance;
	type AccountStore = System;
	type ExistentialDeposit = ConstU128<1>;
	type RuntimeHoldReason = RuntimeHoldReason;
}

parameter_types! {
	/// The account the test runtime gives a post-quantum role (`Config::PostQuantumRoles`), as
	/// pq-runtime gives its sudo key; none unless a test sets one.
	pub static RoleHolderAccount: Option<AccountId32> = None;
}

/// [`RoleHolderAccount`], as a `Config::PostQuantumRoles`.
pub struct RoleHolder;

impl polkadot_sdk::frame_support::traits::Contains<AccountId32> for RoleHolder {
	fn contains(who: &AccountId32) -> bool {
		RoleHolderAccount::get().as_ref() == Some(who)
	}
}

parameter_types! {
	/// Deposit per registered key, before its bytes.
	pub const KeyDepositBase: Balance = 1_000;
	/// Deposit per stored byte.
	pub const KeyDepositPerByte: Balance = 1;
	/// A nanosecond per extrinsic byte, so that the tests see bytes charged.
	pub const WeightPerExtrinsicByte: Weight = Weight::from_parts(1_000, 0);
}

/// Endows benchmark accounts.
#[cfg(feature = "runtime-benchmarks")]
pub struct BenchmarkHelper;

#[cfg(feature = "runtime-benchmarks")]
impl crate::BenchmarkHelper<AccountId32> for BenchmarkHelper {
	fn endow(who: &AccountId32) {
		use polkadot_sdk::frame_support::traits::fungible::Mutate;
		Balances::set_balance(who, ENDOWMENT);
	}
}

#[docify::export(config_example)]
impl pallet_pq_verifier::Config for Test {
	type Backend = pq_crypto::backend::Libcrux;
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type KeyDepositBase = KeyDepositBase;
	type KeyDepositPerByte = KeyDepositPerByte;
	type KeyCacheBytes = ConstU32<{ 4 << 20 }>;
	type FeeCheck = FlatFee;
	type PostQuantumRoles = RoleHolder;
	type WeightInfo = ();
	type WeightPerExtrinsicByte = WeightPerExtrinsicByte;
	#[cfg(feature = "runtime-benchmarks")]
	type BenchmarkHelper = BenchmarkHelper;
}

/// What every test transaction costs its sender.
pub const FLAT_FEE: Balance = 10;

/// The test runtime's fee check: a sender needs [`FLAT_FEE`] free.
pub struct FlatFee;

impl pallet_pq_verifier::FeeCheck<RuntimeCall> for FlatFee {
	fn can_pay(
		who: &AccountId32,
		_call: &RuntimeCall,
		_info: &DispatchInfo,
		_len: usize,
	) -> Result<(), TransactionValidityError> {
		use polkadot_sdk::frame_support::traits::fungible::Inspect;
		if Balances::balance(who) < FLAT_FEE {
			return Err(InvalidTransaction::Payment.into());
		}
		Ok(())
	}
}

/// The transaction extensions of the test runtime: the genesis hash and the nonce, which every
/// form signs.
pub type TxExtension = (frame_system::CheckGenesis<Test>, frame_system::CheckNonce<Test>);

/// What every endowed test account starts with.
pub const ENDOWMENT: Balance = 1_000_000;

/// Externalities with `endowed` accounts funded and the pallet at its storage version (as a
/// new chain's genesis writes it), at block 1.
pub fn new_test_ext_with(endowed: &[AccountId32]) -> polkadot_sdk::sp_io::TestExternalities {
	let mut storage = frame_system::GenesisConfig::<Test>::default().build_storage().unwrap();
	pallet_balances::GenesisConfig::<Test> {
		balances: endowed.iter().map(|who| (who.clone(), ENDOWMENT)).collect(),
		..Default::default()
	}
	.assimilate_storage(&mut storage)
	.unwrap();
	let mut ext = polkadot_sdk::sp_io::TestExternalities::new(storage);
	ext.execute_with(|| {
		<PqVerifier as polkadot_sdk::frame_support::traits::OnGenesis>::on_genesis();
		System::set_block_number(1);
	});
	ext
}

/// Externalities with no endowed account.
pub fn new_test_ext() -> polkadot_sdk::sp_io::TestExternalities {
	new_test_ext_with(&[])
}
