//! A `pq-node` process: ports it picks itself, its log in the base path, killed when dropped.

use crate::rpc::RpcClient;
use std::{
	fs::File,
	io::{Read, Write},
	net::{SocketAddr, TcpStream},
	path::{Path, PathBuf},
	process::{Child, Command, Stdio},
	sync::{
		atomic::{AtomicUsize, Ordering},
		Mutex,
	},
	time::{Duration, Instant},
};

/// How long a node may take to open its RPC port (a cold Wasm compilation included).
const STARTUP: Duration = Duration::from_secs(120);
/// How long a node may take to shut down cleanly.
const SHUTDOWN: Duration = Duration::from_secs(60);

/// A running `pq-node`.
pub struct NodeProcess {
	child: Mutex<Child>,
	url: String,
	/// `None` with `--no-prometheus`.
	prometheus: Option<SocketAddr>,
	log: PathBuf,
	_base_path: Option<tempfile::TempDir>,
}

/// Writes to `path` the chain specification of a local testnet of `validators` (`//Alice` …)
/// with `slot_ms` blocks and, besides the dev accounts, `endowed` endowed: what every node of
/// one network must share (`pq-node build-spec --chain local-<validators>`, edited).
pub fn write_local_testnet_spec(
	binary: &Path,
	validators: usize,
	slot_ms: u64,
	endowed: &[(polkadot_sdk::sp_runtime::AccountId32, pq_runtime::Balance)],
	path: &Path,
) -> anyhow::Result<()> {
	use anyhow::Context;
	use polkadot_sdk::sp_core::crypto::Ss58Codec;
	let chain = format!("local-{validators}");
	let output = Command::new(binary)
		.args(["build-spec", "--disable-default-bootnode", "--chain", &chain])
		.output()
		.context("pq-node build-spec")?;
	anyhow::ensure!(
		output.status.success(),
		"pq-node build-spec failed: {}",
		String::from_utf8_lossy(&output.stderr)
	);
	let mut spec: serde_json::Value =
		serde_json::from_slice(&output.stdout).context("build-spec output")?;
	let patch = &mut spec["genesis"]["runtimeGenesis"]["patch"];
	patch[pq_runtime::genesis_config_presets::SLOT_DURATION_FIELD] = slot_ms.into();
	let balances = patch["balances"]["balances"]
		.as_array_mut()
		.context("the local testnet's balances")?;
	balances.extend(
		endowed
			.iter()
			.map(|(account, balance)| serde_json::json!([account.to_ss58check(), balance])),
	);
	std::fs::write(path, serde_json::to_vec_pretty(&spec)?)?;
	Ok(())
}

/// The addresses a node logs once it listens on them, as sc-service prints them:
/// `Running JSON-RPC server: addr=127.0.0.1:36895,[::1]:34321` and
/// `〽️ Prometheus exporter started at 127.0.0.1:39125`.
const RPC_LISTENING: &str = "Running JSON-RPC server: addr=";
const PROMETHEUS_LISTENING: &str = "Prometheus exporter started at ";

/// The first IPv4 address after `marker` in the complete lines of `log` (the node may be
/// writing the last one: a cut `127.0.0.1:368` would be a wrong port).
fn logged_address(log: &str, marker: &str) -> Option<SocketAddr> {
	let complete = &log[..log.rfind('\n').map_or(0, |end| end + 1)];
	let (_, rest) = complete.split_once(marker)?;
	rest.split(|c: char| c == ',' || c.is_whitespace())
		.find_map(|address| address.parse::<SocketAddr>().ok().filter(SocketAddr::is_ipv4))
}

impl NodeProcess {
	/// `<binary> --dev` on a base path that is deleted afterwards.
	pub async fn start_dev(binary: &Path) -> Self {
		let base_path = tempfile::tempdir().unwrap();
		let mut node = Self::start(binary, base_path.path(), &["--dev"]).await;
		node._base_path = Some(base_path);
		node
	}

	/// `<binary> <args>` on `base_path`; returns once JSON-RPC answers.
	///
	/// The node binds port 0 for JSON-RPC, peer-to-peer and Prometheus, and its log says which
	/// ports it got. Ports chosen for it beforehand could be taken by another process (another
	/// test's node, an outgoing connection) before it binds them, and then this handle would
	/// talk to someone else's node.
	pub async fn start(binary: &Path, base_path: &Path, args: &[&str]) -> Self {
		let serves_metrics = !args.contains(&"--no-prometheus");
		// One log per start: a node restarted on the same base path does not overwrite the last.
		static STARTS: AtomicUsize = AtomicUsize::new(0);
		let log = base_path.join(format!("pq-node-{}.log", STARTS.fetch_add(1, Ordering::Relaxed)));
		let output = File::create(&log).unwrap();
		let child = Command::new(binary)
			.args(args)
			.arg("--base-path")
			.arg(base_path)
			.args(["--rpc-port", "0", "--port", "0"])
			.args(serves_metrics.then_some(["--prometheus-port", "0"]).into_iter().flatten())
			.stdout(output.try_clone().unwrap())
			.stderr(output)
			.stdin(Stdio::null())
			.spawn()
			.expect("pq-node starts");
		let mut node = Self {
			child: Mutex::new(child),
			url: String::new(),
			prometheus: None,
			log,
			_base_path: None,
		};
		let deadline = Instant::now() + STARTUP;
		let (rpc, prometheus) = loop {
			let log = node.log();
			let rpc = logged_address(&log, RPC_LISTENING);
			let prometheus = logged_address(&log, PROMETHEUS_LISTENING);
			if let Some(rpc) = rpc.filter(|_| prometheus.is_some() || !serves_metrics) {
				break (rpc, prometheus);
			}
			assert!(node.is_running(), "pq-node exited during startup:\n{log}");
			assert!(
				Instant::now() < deadline,
				"pq-node did not open JSON-RPC and Prometheus in {STARTUP:?}:\n{log}"
			);
			tokio::time::sleep(Duration::from_millis(100)).await;
		};
		node.url = format!("ws://{rpc}");
		node.prometheus = prometheus;
		while RpcClient::connect(&node.url).await.is_err() {
			assert!(node.is_running(), "pq-node exited during startup:\n{}", node.log());
			assert!(
				Instant::now() < deadline,
				"pq-node did not answer on {rpc} in {STARTUP:?}:\n{}",
				node.log()
			);
			tokio::time::sleep(Duration::from_millis(100)).await;
		}
		node
	}

	/// The node's JSON-RPC WebSocket address.
	pub fn url(&self) -> &str {
		&self.url
	}

	/// A JSON-RPC connection.
	pub async fn rpc(&self) -> RpcClient {
		RpcClient::connect(&self.url).await.unwrap()
	}

	/// The node's peer-to-peer address on loopback, `/ip4/127.0.0.1/tcp/<port>/p2p/<peer id>`,
	/// for other nodes' `--bootnodes`; waits until the node listens.
	pub async fn multiaddr(&self) -> String {
		let rpc = self.rpc().await;
		let deadline = Instant::now() + STARTUP;
		loop {
			let addresses: Vec<String> = rpc
				.request("system_localListenAddresses", jsonrpsee::rpc_params![])
				.await
				.unwrap();
			if let Some(loopback) =
				addresses.into_iter().find(|address| address.starts_with("/ip4/127.0.0.1/tcp/"))
			{
				return loopback;
			}
			assert!(
				Instant::now() < deadline,
				"pq-node does not listen on loopback:\n{}",
				self.log()
			);
			tokio::time::sleep(Duration::from_millis(100)).await;
		}
	}

	/// Kills the process at once, without a clean shutdown, as a crash or power loss would.
	pub fn crash(self) {
		let mut child = self.child.lock().unwrap();
		child.kill().unwrap();
		child.wait().unwrap();
	}

	/// The process id.
	pub fn pid(&self) -> u32 {
		self.child.lock().unwrap().id()
	}

	/// Whether the process is still alive.
	pub fn is_running(&self) -> bool {
		self.child.lock().unwrap().try_wait().unwrap().is_none()
	}

	/// The file the node logs to (complete once the node has stopped: it buffers its lines).
	pub fn log_path(&self) -> &Path {
		&self.log
	}

	/// What the node has logged so far.
	pub fn log(&self) -> String {
		std::fs::read_to_string(&self.log).unwrap_or_default()
	}

	/// The Prometheus exposition from `/metrics`.
	pub async fn metrics(&self) -> String {
		let address = self
			.prometheus
			.expect("the node serves Prometheus metrics (no --no-prometheus)");
		let mut stream = TcpStream::connect(address).unwrap();
		stream.write_all(b"GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
		let mut response = String::new();
		stream.read_to_string(&mut response).unwrap();
		response
	}

	/// Stops the node as an operator does (SIGINT) and waits until it has exited cleanly.
	pub async fn stop(self) {
		let pid = self.child.lock().unwrap().id().to_string();
		let signalled = Command::new("kill").args(["-INT", &pid]).status().unwrap();
		assert!(signalled.success());
		let deadline = Instant::now() + SHUTDOWN;
		while self.is_running() {
			assert!(
				Instant::now() < deadline,
				"pq-node did not stop in {SHUTDOWN:?}:\n{}",
				self.log()
			);
			tokio::time::sleep(Duration::from_millis(100)).await;
		}
	}
}

impl Drop for NodeProcess {
	fn drop(&mut self) {
		// A failing test's node log is deleted with its base path: show it while it is there.
		if std::thread::panicking() {
			eprintln!("log of the pq-node at {}:\n{}", self.url, self.log());
		}
		let child = self.child.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
		if child.try_wait().ok().flatten().is_none() {
			let _ = child.kill();
			let _ = child.wait();
		}
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn the_logged_ipv4_listen_addresses_are_found() {
		let log = "2026-11-24 00:37:33 〽️ Prometheus exporter started at 127.0.0.1:39125    \n\
			2026-11-24 00:37:33 Running JSON-RPC server: addr=[::1]:34321,127.0.0.1:36895    \n";
		assert_eq!(
			logged_address(log, RPC_LISTENING),
			Some(SocketAddr::from(([127, 0, 0, 1], 36895)))
		);
		assert_eq!(
			logged_address(log, PROMETHEUS_LISTENING),
			Some(SocketAddr::from(([127, 0, 0, 1], 39125)))
		);
		assert_eq!(
			logged_address("Running JSON-RPC server: addr=[::1]:34321\n", RPC_LISTENING),
			None
		);
		assert_eq!(
			logged_address("Running JSON-RPC server: addr=127.0.0.1:368", RPC_LISTENING),
			None,
			"a line being written"
		);
		assert_eq!(logged_address("Local node identity is: 12D3KooW", RPC_LISTENING), None);
	}
}
