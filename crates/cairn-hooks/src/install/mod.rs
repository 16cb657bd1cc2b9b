//! `cairn hooks install|uninstall|status`: wiring cairn into each client's own settings
//! files, the session-start hook, the prompt hook (Claude Code and Codex
//! `UserPromptSubmit`, Gemini CLI `BeforeAgent`; Cursor has none that adds context) and
//! the MCP server.
//!
//! | client | hooks (user / project scope) | MCP server (user / project scope) |
//! |---|---|---|
//! | Claude Code | `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude/`) / `.claude/settings.json` | `$CLAUDE_CONFIG_DIR/.claude.json` (default `~/.claude.json`) / `.mcp.json` |
//! | Codex | `$CODEX_HOME/hooks.json` / `.codex/hooks.json` | `$CODEX_HOME/config.toml` / `.codex/config.toml` |
//! | Gemini CLI | `~/.gemini/settings.json` / `.gemini/settings.json` | same files, `mcpServers` |
//! | Cursor | `~/.cursor/hooks.json` / `.cursor/hooks.json` | `~/.cursor/mcp.json` / `.cursor/mcp.json` |
//!
//! Planning is pure (text in, text out, see [`plan`]); [`apply`] writes: a backup of
//! the previous file beside it (the last [`BACKUPS_KEPT`] kept), then the new text
//! atomically (temporary file, fsync, rename, the old file's permissions kept). Installing twice changes nothing;
//! uninstalling removes only what cairn added (and containers left empty).

pub mod codex_toml;
pub mod json;
mod probe;

use std::path::{Path, PathBuf};

pub use json::{EditError, HookKind};
pub use probe::{Probe, SAMPLE_PROMPT, probe, probe_prompt};

use crate::Client;

/// User-wide or one project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The user's home directory: every session.
    User,
    /// One project directory: sessions started there.
    Project,
}

impl Scope {
    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
        }
    }
}

/// Where settings files live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locations {
    /// `$HOME`.
    pub home: PathBuf,
    /// The project directory (for project scope).
    pub project_dir: PathBuf,
    /// `$CODEX_HOME` when set (default `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR` when set: Claude Code's user settings and its
    /// `.claude.json` live there instead of `~/.claude/` and `~/.claude.json`.
    pub claude_config_dir: Option<PathBuf>,
}

impl Locations {
    fn codex_home(&self) -> PathBuf {
        self.codex_home
            .clone()
            .unwrap_or_else(|| self.home.join(".codex"))
    }

    /// The file holding `client`'s session-start hooks in `scope`.
    pub fn hook_file(&self, client: Client, scope: Scope) -> PathBuf {
        let p = &self.project_dir;
        match (client, scope) {
            (Client::Claude, Scope::User) => match &self.claude_config_dir {
                Some(dir) => dir.join("settings.json"),
                None => self.home.join(".claude/settings.json"),
            },
            (Client::Claude, Scope::Project) => p.join(".claude/settings.json"),
            (Client::Codex, Scope::User) => self.codex_home().join("hooks.json"),
            (Client::Codex, Scope::Project) => p.join(".codex/hooks.json"),
            (Client::Gemini, Scope::User) => self.home.join(".gemini/settings.json"),
            (Client::Gemini, Scope::Project) => p.join(".gemini/settings.json"),
            (Client::Cursor, Scope::User) => self.home.join(".cursor/hooks.json"),
            (Client::Cursor, Scope::Project) => p.join(".cursor/hooks.json"),
        }
    }

    /// The file registering `client`'s MCP servers in `scope`.
    pub fn mcp_file(&self, client: Client, scope: Scope) -> PathBuf {
        let p = &self.project_dir;
        match (client, scope) {
            (Client::Claude, Scope::User) => match &self.claude_config_dir {
                Some(dir) => dir.join(".claude.json"),
                None => self.home.join(".claude.json"),
            },
            (Client::Claude, Scope::Project) => p.join(".mcp.json"),
            (Client::Codex, Scope::User) => self.codex_home().join("config.toml"),
            (Client::Codex, Scope::Project) => p.join(".codex/config.toml"),
            (Client::Gemini, s) => self.hook_file(Client::Gemini, s),
            (Client::Cursor, Scope::User) => self.home.join(".cursor/mcp.json"),
            (Client::Cursor, Scope::Project) => p.join(".cursor/mcp.json"),
        }
    }
}

/// How a client starts cairn's MCP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpCommand {
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// What to wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wiring {
    /// The client.
    pub client: Client,
    /// The scope.
    pub scope: Scope,
    /// The session-start hook's shell command.
    pub hook_command: String,
    /// The prompt hook's shell command (`None`: not wired; ignored for a client
    /// without a prompt hook).
    pub prompt_command: Option<String>,
    /// The MCP server, unless left out.
    pub mcp: Option<McpCommand>,
}

/// What an edit did to one setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Added.
    Added,
    /// Already there, now pointing at the new command.
    Updated,
    /// Removed.
    Removed,
    /// Nothing to do.
    Unchanged,
}

/// One settings file to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    /// The file.
    pub path: PathBuf,
    /// Its text now (`None`: it does not exist).
    pub before: Option<String>,
    /// Its text after the edit.
    pub after: String,
    /// What changed, in words.
    pub changes: Vec<String>,
}

impl FileEdit {
    /// A unified diff of the edit.
    pub fn diff(&self) -> String {
        let old = self.before.as_deref().unwrap_or("");
        let name = self.path.display().to_string();
        let old_name = if self.before.is_some() {
            format!("a: {name}")
        } else {
            "a: /dev/null (new file)".to_owned()
        };
        similar::TextDiff::from_lines(old, self.after.as_str())
            .unified_diff()
            .context_radius(3)
            .header(&old_name, &format!("b: {name}"))
            .to_string()
    }
}

/// A file that could not be read, parsed or written.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// Reading or writing.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file's content cannot be edited safely; it is left as it is.
    #[error("{path}: {source}; nothing was changed")]
    Edit {
        /// The file.
        path: PathBuf,
        /// Why.
        source: EditError,
    },
}

/// An edit of one file's text: the new text and what changed.
type EditResult = Result<(String, Change), EditError>;

/// Install or uninstall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Add the hook and the MCP server.
    Install,
    /// Remove them.
    Uninstall,
}

fn read(path: &Path) -> Result<Option<String>, InstallError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(InstallError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Works out the edits for `wiring` without writing anything. Files that would not change
/// are left out, so an empty plan means "already done".
pub fn plan(
    wiring: &Wiring,
    loc: &Locations,
    action: Action,
) -> Result<Vec<FileEdit>, InstallError> {
    let client = wiring.client;
    let hook_path = loc.hook_file(client, wiring.scope);
    let mcp_path = loc.mcp_file(client, wiring.scope);
    let mut files: Vec<(PathBuf, Option<String>, String, Vec<String>)> = Vec::new();
    let mut edit =
        |path: &Path, f: &dyn Fn(&str) -> EditResult, what: &str| -> Result<(), InstallError> {
            let idx = if let Some(i) = files.iter().position(|(p, ..)| p == path) {
                i
            } else {
                let before = read(path)?;
                let text = before.clone().unwrap_or_default();
                files.push((path.to_path_buf(), before, text, Vec::new()));
                files.len() - 1
            };
            let (new, change) = f(&files[idx].2).map_err(|source| InstallError::Edit {
                path: path.to_path_buf(),
                source,
            })?;
            if change != Change::Unchanged {
                files[idx].2 = new;
                let verb = match change {
                    Change::Added => "added",
                    Change::Updated => "updated",
                    Change::Removed => "removed",
                    Change::Unchanged => "unchanged",
                };
                files[idx].3.push(format!("{what} {verb}"));
            }
            Ok(())
        };
    match action {
        Action::Install => {
            let cmd = wiring.hook_command.as_str();
            edit(
                &hook_path,
                &|t| json::install_hook(t, client, cmd),
                "session-start hook",
            )?;
            match &wiring.prompt_command {
                Some(prompt) => edit(
                    &hook_path,
                    &|t| json::install_kind(t, client, HookKind::Prompt, prompt),
                    "prompt hook",
                )?,
                // Opted out: a prompt hook an earlier install added goes.
                None => edit(
                    &hook_path,
                    &|t| json::uninstall_kind(t, client, HookKind::Prompt),
                    "prompt hook",
                )?,
            }
            if let Some(mcp) = &wiring.mcp {
                if client == Client::Codex {
                    edit(
                        &mcp_path,
                        &|t| codex_toml::install_mcp(t, mcp),
                        "MCP server `cairn`",
                    )?;
                } else {
                    let typed = client == Client::Claude;
                    edit(
                        &mcp_path,
                        &|t| json::install_mcp(t, mcp, typed),
                        "MCP server `cairn`",
                    )?;
                }
            }
        }
        Action::Uninstall => {
            edit(
                &hook_path,
                &|t| json::uninstall_hook(t, client),
                "session-start hook",
            )?;
            edit(
                &hook_path,
                &|t| json::uninstall_kind(t, client, HookKind::Prompt),
                "prompt hook",
            )?;
            if client == Client::Codex {
                edit(&mcp_path, &codex_toml::uninstall_mcp, "MCP server `cairn`")?;
            } else {
                edit(&mcp_path, &json::uninstall_mcp, "MCP server `cairn`")?;
            }
        }
    }
    Ok(files
        .into_iter()
        .filter(|(_, before, after, changes)| {
            !changes.is_empty() && before.as_deref() != Some(after.as_str())
        })
        .map(|(path, before, after, changes)| FileEdit {
            path,
            before,
            after,
            changes,
        })
        .collect())
}

/// A written edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The file.
    pub path: PathBuf,
    /// The copy of its previous content, when it existed.
    pub backup: Option<PathBuf>,
}

/// How many backups of one settings file are kept: older ones are removed when a
/// new one is made.
pub const BACKUPS_KEPT: usize = 3;

/// Writes `edits`: each previous file is first copied to
/// `<name>.cairn-backup-<stamp>` beside it (only the newest [`BACKUPS_KEPT`] stay),
/// then replaced atomically.
pub fn apply(edits: &[FileEdit], stamp: &str) -> Result<Vec<Applied>, InstallError> {
    let mut done = Vec::new();
    for e in edits {
        let io = |source| InstallError::Io {
            path: e.path.clone(),
            source,
        };
        let dir = e
            .path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        std::fs::create_dir_all(&dir).map_err(io)?;
        let backup = match &e.before {
            Some(_) => {
                let b = backup_file(&e.path, stamp)?;
                prune_backups(&e.path, BACKUPS_KEPT);
                Some(b)
            }
            None => None,
        };
        write_atomic(&e.path, e.after.as_bytes()).map_err(io)?;
        done.push(Applied {
            path: e.path.clone(),
            backup,
        });
    }
    Ok(done)
}

fn backup_file(path: &Path, stamp: &str) -> Result<PathBuf, InstallError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // After every backup of this second, even when older ones were pruned: a
    // name is never reused, so the newest backup always sorts last.
    let prefix = format!("{name}.cairn-backup-{stamp}");
    let taken: Vec<u64> = backups(path)
        .iter()
        .filter_map(|b| {
            let file = b.file_name()?.to_string_lossy().into_owned();
            let rest = file.strip_prefix(&prefix)?;
            match rest.strip_prefix('-') {
                None if rest.is_empty() => Some(0),
                Some(n) => n.parse().ok(),
                None => None,
            }
        })
        .collect();
    let mut candidate = match taken.iter().max() {
        None => path.with_file_name(prefix.clone()),
        Some(n) => path.with_file_name(format!("{prefix}-{}", n + 1)),
    };
    let mut n = taken.iter().max().map_or(1, |n| n + 2);
    while candidate.exists() {
        candidate = path.with_file_name(format!("{prefix}-{n}"));
        n += 1;
    }
    std::fs::copy(path, &candidate).map_err(|source| InstallError::Io {
        path: candidate.clone(),
        source,
    })?;
    Ok(candidate)
}

/// The backups of `path` beside it, oldest first: `<name>.cairn-backup-<stamp>` and
/// `<name>.cairn-backup-<stamp>-<n>` (a second backup in the same second), ordered by
/// stamp, then by `n`.
pub fn backups(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let prefix = format!("{}.cairn-backup-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return Vec::new();
    };
    let mut found: Vec<((String, u64), PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let rest = file.strip_prefix(&prefix)?;
            let key = match rest.rsplit_once('-') {
                Some((stamp, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                    (stamp.to_owned(), n.parse().unwrap_or(u64::MAX))
                }
                _ => (rest.to_owned(), 0),
            };
            Some((key, path.with_file_name(file)))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, p)| p).collect()
}

/// Removes all but the newest `keep` backups of `path` (what cannot be removed stays).
fn prune_backups(path: &Path, keep: usize) {
    let all = backups(path);
    let extra = all.len().saturating_sub(keep);
    for old in &all[..extra] {
        let _ = std::fs::remove_file(old);
    }
}

/// Temporary file in the same folder, fsync, rename over `path` (keeping its
/// permissions), fsync of the folder: [`cairn_atomic_write::StagedFile`].
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let staged = cairn_atomic_write::StagedFile::beside(path, ".cairn-tmp-", 0o600, bytes)?;
    // A new settings file is readable like any config file, except Claude Code's
    // `~/.claude.json`, which also holds account state and stays private.
    #[cfg(unix)]
    if !staged.keep_target_permissions()? && path.file_name().is_none_or(|n| n != ".claude.json") {
        use std::os::unix::fs::PermissionsExt;
        staged.set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    #[cfg(not(unix))]
    staged.keep_target_permissions()?;
    staged.replace()
}

/// What is wired for one client and scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wired {
    /// The client.
    pub client: Client,
    /// The scope.
    pub scope: Scope,
    /// The hooks file.
    pub hook_file: PathBuf,
    /// cairn's session-start hook commands found in it.
    pub hooks: Vec<String>,
    /// cairn's prompt hook commands found in it.
    pub prompt_hooks: Vec<String>,
    /// The MCP file.
    pub mcp_file: PathBuf,
    /// cairn's MCP server, if registered.
    pub mcp: Option<McpCommand>,
    /// Files that could not be read or parsed.
    pub problems: Vec<String>,
}

/// Reads what is wired for `client` in `scope`.
pub fn inspect(client: Client, scope: Scope, loc: &Locations) -> Wired {
    let hook_file = loc.hook_file(client, scope);
    let mcp_file = loc.mcp_file(client, scope);
    let mut problems = Vec::new();
    let mut hooks = Vec::new();
    let mut prompt_hooks = Vec::new();
    match read(&hook_file) {
        Ok(Some(text)) => match (
            json::find_hooks(&text, client),
            json::find_kind(&text, client, HookKind::Prompt),
        ) {
            (Ok(h), Ok(p)) => {
                hooks = h;
                prompt_hooks = p;
            }
            (Err(e), _) | (_, Err(e)) => problems.push(format!("{}: {e}", hook_file.display())),
        },
        Ok(None) => {}
        Err(e) => problems.push(e.to_string()),
    }
    let mut mcp = None;
    match read(&mcp_file) {
        Ok(Some(text)) => {
            let found = if client == Client::Codex {
                codex_toml::find_mcp(&text)
            } else {
                json::find_mcp(&text)
            };
            match found {
                Ok(m) => mcp = m,
                Err(e) => problems.push(format!("{}: {e}", mcp_file.display())),
            }
        }
        Ok(None) => {}
        Err(e) => problems.push(e.to_string()),
    }
    problems.dedup();
    Wired {
        client,
        scope,
        hook_file,
        hooks,
        prompt_hooks,
        mcp_file,
        mcp,
        problems,
    }
}

/// Whether Cursor's own cairn session-start hook is wired, for the user or in the
/// project at `loc.project_dir`: Cursor then also runs the hooks it finds in Claude
/// Code's settings ("third-party hooks"), and cairn's Claude-shaped hook must stay
/// silent so the packet is not injected twice.
pub fn cursor_hook_installed(loc: &Locations) -> bool {
    [Scope::User, Scope::Project]
        .into_iter()
        .any(|scope| !inspect(Client::Cursor, scope, loc).hooks.is_empty())
}

/// Quotes `s` for a POSIX shell when it needs it.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("/usr/bin/cairn"), "/usr/bin/cairn");
        assert_eq!(shell_quote("/opt/my tools/cairn"), "'/opt/my tools/cairn'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
