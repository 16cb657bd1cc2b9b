//! Flags resolved into the typed requests the libraries take: each value enum into
//! its library type, `--now` and `--cwd` read, a wakeup, search or eval request
//! built and checked (a bad value is a [`UsageError`], exit 2).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use cairn_engine::{Format, Ranking, SearchRequest, SearchScope, Target, WakeupRequest};
use cairn_eval::EvalOptions;
use cairn_hooks::Client;
use cairn_hooks::install::Scope;
use chrono::{DateTime, Utc};

use crate::args::{
    ClientArg, EvalArgs, FormatArg, PacketArgs, RankingArg, ScopeArg, SearchArgs, SessionArg,
    TargetArg,
};
use crate::error::UsageError;

impl From<TargetArg> for Target {
    fn from(t: TargetArg) -> Self {
        match t {
            TargetArg::Claude => Target::Claude,
            TargetArg::Codex => Target::Codex,
            TargetArg::Cursor => Target::Cursor,
            TargetArg::Gemini => Target::Gemini,
            TargetArg::Opencode => Target::Opencode,
            TargetArg::Generic => Target::Generic,
        }
    }
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Prompt => Format::Prompt,
        }
    }
}

impl From<SessionArg> for cairn_engine::SessionSource {
    fn from(s: SessionArg) -> Self {
        match s {
            SessionArg::Startup => Self::Startup,
            SessionArg::Resume => Self::Resume,
            SessionArg::Compact => Self::Compact,
            SessionArg::Clear => Self::Clear,
        }
    }
}

impl From<RankingArg> for Ranking {
    fn from(r: RankingArg) -> Self {
        match r {
            RankingArg::Full => Ranking::Full,
            RankingArg::Bm25 => Ranking::Bm25,
        }
    }
}

impl From<ClientArg> for Client {
    fn from(c: ClientArg) -> Self {
        match c {
            ClientArg::Claude => Client::Claude,
            ClientArg::Codex => Client::Codex,
            ClientArg::Gemini => Client::Gemini,
            ClientArg::Cursor => Client::Cursor,
        }
    }
}

impl From<ScopeArg> for Scope {
    fn from(s: ScopeArg) -> Self {
        match s {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}

/// Parses `--now`, or takes the clock.
pub(crate) fn resolve_now(now: Option<&str>) -> Result<DateTime<Utc>> {
    match now {
        None => Ok(Utc::now()),
        Some(s) => DateTime::parse_from_rfc3339(s)
            .map(|d| d.with_timezone(&Utc))
            .map_err(|e| {
                UsageError(format!(
                    "--now {s:?} is not an RFC 3339 time ({e}); e.g. 2026-11-22T09:00:00Z"
                ))
            })
            .map_err(anyhow::Error::from),
    }
}

/// The working directory: `--cwd` or the process's.
pub(crate) fn resolve_cwd(cwd: Option<&PathBuf>) -> Result<PathBuf> {
    match cwd {
        Some(c) => Ok(c.clone()),
        None => std::env::current_dir().context("cannot read the current directory"),
    }
}

impl PacketArgs {
    /// Resolves into a wakeup request.
    pub(crate) fn request(&self, format: Format) -> Result<WakeupRequest> {
        if self.budget == Some(0) {
            bail!(UsageError("--budget must be at least 1".into()));
        }
        Ok(WakeupRequest {
            cwd: resolve_cwd(self.cwd.as_ref())?,
            project: self.project.clone(),
            task: self.task.trim().to_owned(),
            files: self
                .files
                .iter()
                .map(|f| f.trim().to_owned())
                .filter(|f| !f.is_empty())
                .collect(),
            profile: self.profile.clone(),
            target: self.target.into(),
            format,
            budget: self.budget,
            now: resolve_now(self.now.as_deref())?,
            ranking: self.ranking.into(),
            source: self.session.into(),
            limit: self.limit,
            caps: cairn_engine::OutputCaps::NONE,
        })
    }
}

impl SearchArgs {
    /// Resolves into a search request. With a configuration, the search is routed
    /// from `--cwd` and covers the routed roots unless `--all`; without one it
    /// covers the whole vault.
    pub(crate) fn request(&self, has_config: bool) -> Result<SearchRequest> {
        Ok(SearchRequest {
            query: self.query.clone(),
            cwd: if has_config {
                Some(resolve_cwd(self.cwd.as_ref())?)
            } else {
                None
            },
            project: self.project.clone(),
            files: Vec::new(),
            scope: if self.all || !has_config {
                SearchScope::All
            } else {
                SearchScope::Routed
            },
            limit: self.limit,
            ranking: self.ranking.into(),
            today: chrono::Utc::now().date_naive(),
        })
    }
}

impl EvalArgs {
    /// Checks the flags and resolves them into the harness's options.
    pub(crate) fn options(&self) -> Result<EvalOptions> {
        if self.ks.contains(&0) {
            bail!(UsageError("--k values must be at least 1".into()));
        }
        if !self.suite.is_dir() {
            bail!(UsageError(format!(
                "suite {} is not a folder",
                self.suite.display()
            )));
        }
        Ok(EvalOptions {
            ks: self.ks.clone(),
            ranking: self.ranking.into(),
            config: self.config.clone(),
            home: std::env::var_os("HOME").map(PathBuf::from),
            today: resolve_now(self.now.as_deref())?.date_naive(),
            profiles_dir: self.profiles_dir.clone(),
        })
    }
}
