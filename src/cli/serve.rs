//! `millbase serve`: the web explorer and its JSON API on one database.

use super::{DbArgs, Failure};
use clap::Args;
use millbase::query::Database;
use std::io::Write;

#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Address to listen on (loopback by default; 0.0.0.0:PORT serves other
    /// machines too; port 0 picks a free port).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    addr: String,
}

pub fn run(a: ServeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let db = Database::open(&a.db.db)?;
    let rules = db.rules();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::fault(format!("cannot start the server runtime: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&a.addr).await.map_err(|e| {
            Failure::fault(format!(
                "cannot listen on {}: {e} (another server there? choose another --addr)",
                a.addr
            ))
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| Failure::fault(format!("cannot read the address listened on: {e}")))?;
        writeln!(
            out,
            "millbase explorer ({} rules, {}): open http://{local}/  (Ctrl-C stops)",
            rules.name(),
            a.db.db.display()
        )?;
        out.flush()?;
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        millbase::server::serve(db, listener, shutdown)
            .await
            .map_err(|e| Failure::fault(format!("server stopped: {e}")))
    })
}
