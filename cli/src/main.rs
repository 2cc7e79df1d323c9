//! `pq-cli`: see the library's documentation, or `pq-cli --help`.

use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
	let cli = pq_cli::Cli::parse();
	match pq_cli::run(cli, &mut std::io::stdout()).await {
		Ok(()) => std::process::ExitCode::SUCCESS,
		// The reader went away (`pq-cli … | head`): nothing left to report.
		Err(error)
			if error
				.downcast_ref::<std::io::Error>()
				.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
		{
			std::process::ExitCode::SUCCESS
		},
		Err(error) => {
			eprintln!("error: {error:#}");
			std::process::ExitCode::FAILURE
		},
	}
}
