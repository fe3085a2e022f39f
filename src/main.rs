use std::process::ExitCode;

fn main() -> ExitCode {
    gateway_migrate::cli::main()
}
