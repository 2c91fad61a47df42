//! Starts `locklint lsp` for Go files in Zed.
//!
//! The server is the `locklint` command: the one on the worktree's PATH, or
//! `lsp.locklint.binary.path` in Zed's settings. It runs `go vet`, so it gets
//! the worktree's shell environment (PATH, GOFLAGS, GOPATH). The user's
//! `lsp.locklint.settings` (or `initialization_options`) are passed on under
//! "locklint", the shape `locklint lsp` reads:
//!
//! ```json
//! "lsp": {"locklint": {"settings": {"analyzers": {"lockvalue": false}}}}
//! ```

use zed_extension_api::{
    self as zed,
    serde_json::{json, Value},
    settings::LspSettings,
};

const SERVER: &str = "locklint";

struct Locklint;

impl zed::Extension for Locklint {
    fn new() -> Self {
        Locklint
    }

    fn language_server_command(
        &mut self,
        _id: &zed::LanguageServerId,
        worktree: &zed::Worktree,
    ) -> zed::Result<zed::Command> {
        let binary = LspSettings::for_worktree(SERVER, worktree)
            .ok()
            .and_then(|s| s.binary);
        let configured = binary.as_ref().and_then(|b| b.path.clone());
        let command = configured.or_else(|| worktree.which(SERVER)).ok_or_else(|| {
            "locklint is not on PATH: run `go install github.com/locklint/locklint/cmd/locklint@latest` \
             or set lsp.locklint.binary.path"
                .to_string()
        })?;
        let args = binary
            .and_then(|b| b.arguments)
            .unwrap_or_else(|| vec!["lsp".to_string()]);
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        _id: &zed::LanguageServerId,
        worktree: &zed::Worktree,
    ) -> zed::Result<Option<Value>> {
        Ok(user_settings(worktree))
    }

    fn language_server_workspace_configuration(
        &mut self,
        _id: &zed::LanguageServerId,
        worktree: &zed::Worktree,
    ) -> zed::Result<Option<Value>> {
        Ok(user_settings(worktree))
    }
}

/// The user's settings for the server, wrapped as `locklint lsp` reads
/// them; None when there are none (the server's defaults apply).
fn user_settings(worktree: &zed::Worktree) -> Option<Value> {
    let s = LspSettings::for_worktree(SERVER, worktree).ok()?;
    s.settings
        .or(s.initialization_options)
        .map(|v| json!({ "locklint": v }))
}

zed::register_extension!(Locklint);
