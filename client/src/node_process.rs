//! A `pq-node` process: free loopback ports, its log in the base path, killed when dropped.

use crate::rpc::RpcClient;
use std::{
	fs::File,
	io::{Read, Write},
	net::{TcpListener, TcpStream},
	path::{Path, PathBuf},
	process::{Child, Command, Stdio},
	sync::Mutex,
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
	p2p_port: u16,
	prometheus_port: u16,
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
	anyhow::ensure!(output.status.success(), "pq-node build-spec failed: {}", String::from_utf8_lossy(&output.stderr));
	let mut spec: serde_json::Value = serde_json::from_slice(&output.stdout).context("build-spec output")?;
	let patch = &mut spec["genesis"]["runtimeGenesis"]["patch"];
	patch[pq_runtime::genesis_config_presets::SLOT_DURATION_FIELD] = slot_ms.into();
	let balances = patch["balances"]["balances"].as_array_mut().context("the local testnet's balances")?;
	balances.extend(endowed.iter().map(|(account, balance)| serde_json::json!([account.to_ss58check(), balance])));
	std::fs::write(path, serde_json::to_vec_pretty(&spec)?)?;
	Ok(())
}

/// `N` distinct ports nobody listens on right now: all bound at once, so no two are the same.
fn free_ports<const N: usize>() -> [u16; N] {
	let listeners: [TcpListener; N] = core::array::from_fn(|_| TcpListener::bind("127.0.0.1:0").unwrap());
	listeners.map(|listener| listener.local_addr().unwrap().port())
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
	pub async fn start(binary: &Path, base_path: &Path, args: &[&str]) -> Self {
		let [rpc_port, p2p_port, prometheus_port] = free_ports();
		let log = base_path.join(format!("pq-node-{rpc_port}.log"));
		let output = File::create(&log).unwrap();
		let child = Command::new(binary)
			.args(args)
			.arg("--base-path")
			.arg(base_path)
			.args(["--rpc-port", &rpc_port.to_string(), "--port", &p2p_port.to_string()])
			.args(["--prometheus-port", &prometheus_port.to_string()])
			.stdout(output.try_clone().unwrap())
			.stderr(output)
			.stdin(Stdio::null())
			.spawn()
			.expect("pq-node starts");
		let node = Self {
			child: Mutex::new(child),
			url: format!("ws://127.0.0.1:{rpc_port}"),
			p2p_port,
			prometheus_port,
			log,
			_base_path: None,
		};
		let deadline = Instant::now() + STARTUP;
		while RpcClient::connect(&node.url).await.is_err() {
			assert!(node.is_running(), "pq-node exited during startup:\n{}", node.log());
			assert!(Instant::now() < deadline, "pq-node did not open JSON-RPC in {STARTUP:?}:\n{}", node.log());
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
	/// for other nodes' `--bootnodes`.
	pub async fn multiaddr(&self) -> String {
		let peer_id: String = self.rpc().await.request("system_localPeerId", jsonrpsee::rpc_params![]).await.unwrap();
		format!("/ip4/127.0.0.1/tcp/{}/p2p/{peer_id}", self.p2p_port)
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

	/// What the node has logged so far.
	pub fn log(&self) -> String {
		std::fs::read_to_string(&self.log).unwrap_or_default()
	}

	/// The Prometheus exposition from `/metrics`.
	pub async fn metrics(&self) -> String {
		let mut stream = TcpStream::connect(("127.0.0.1", self.prometheus_port)).unwrap();
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
			assert!(Instant::now() < deadline, "pq-node did not stop in {SHUTDOWN:?}:\n{}", self.log());
			tokio::time::sleep(Duration::from_millis(100)).await;
		}
	}
}

impl Drop for NodeProcess {
	fn drop(&mut self) {
		let child = self.child.get_mut().unwrap();
		if child.try_wait().ok().flatten().is_none() {
			let _ = child.kill();
			let _ = child.wait();
		}
	}
}
