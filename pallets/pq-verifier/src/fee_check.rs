//! [`FeeCheck`] by `pallet-transaction-payment`, for the runtimes that charge fees with it.

use crate::FeeCheck;
use core::marker::PhantomData;
use polkadot_sdk::{
	frame_support::dispatch::DispatchInfo,
	frame_system, pallet_transaction_payment,
	pallet_transaction_payment::OnChargeTransaction,
	sp_runtime::{
		traits::{DispatchInfoOf, Dispatchable, Zero},
		transaction_validity::TransactionValidityError,
		AccountId32,
	},
};

/// Asks `pallet-transaction-payment` whether the sender can pay: the fee `ChargeTransactionPayment`
/// computes for the transaction's weight and length without the tip (a lower bound of what it
/// charges, so no sender it would accept is refused), through the runtime's own
/// `OnChargeTransaction` — the same withdrawal check the extension makes later.
///
/// For runtimes whose extensions charge with `ChargeTransactionPayment` itself. Where some calls
/// are feeless (`SkipCheckIfFeeless`), fees are paid in other assets (`ChargeAssetTxPayment`),
/// or an earlier extension changes who pays, this would refuse senders the runtime accepts:
/// implement [`FeeCheck`] for that runtime instead.
pub struct TransactionPaymentFeeCheck<Runtime>(PhantomData<Runtime>);

impl<Runtime> FeeCheck<<Runtime as frame_system::Config>::RuntimeCall>
	for TransactionPaymentFeeCheck<Runtime>
where
	Runtime: pallet_transaction_payment::Config + frame_system::Config<AccountId = AccountId32>,
	<Runtime as frame_system::Config>::RuntimeCall: Dispatchable<Info = DispatchInfo>,
{
	fn can_pay(
		who: &AccountId32,
		call: &<Runtime as frame_system::Config>::RuntimeCall,
		info: &DispatchInfoOf<<Runtime as frame_system::Config>::RuntimeCall>,
		len: usize,
	) -> Result<(), TransactionValidityError> {
		let no_tip = Zero::zero();
		let fee =
			pallet_transaction_payment::Pallet::<Runtime>::compute_fee(len as u32, info, no_tip);
		<Runtime::OnChargeTransaction as OnChargeTransaction<Runtime>>::can_withdraw_fee(
			who, call, info, fee, no_tip,
		)
	}
}
