//! What a credential detector is ([`Rule`]) and how its match becomes spans
//! ([`Check`]); the detectors themselves are data in `rules/`.

use crate::CredentialKind;
use crate::shape::Line;

/// How a regex match becomes one or more spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The first participating capture group (or the whole match) as is.
    Plain,
    /// The value of a `key = value` assignment: skip placeholders, references,
    /// code and prose ([`crate::benign`]). Quoted values are literals.
    Assignment,
    /// A value that is a literal whatever surrounds it (`<password>x</password>`):
    /// only placeholders, references and markers are skipped.
    Literal,
    /// A code span after a key: skip placeholders, variable names and commands
    /// (``the token `NPM_TOKEN` ``, ``password `openssl rand -hex 32` ``).
    Quoted,
    /// A value in a sentence (`the staging password is Tq9vXw2L`): quoted or
    /// bold values are literals unless they read as prose; a bare word only
    /// when it looks machine-made or typed (a digit, a symbol, mixed case).
    Prose,
    /// A value right after its key, no separator or verb between
    /// (`VNC password Kq7vZ3mXp9`): only a value no sentence has there, eight
    /// characters or more with a letter, a digit, and mixed case or a symbol
    /// ([`crate::benign::looks_generated`]).
    Bare,
    /// An answer to a question about a password (`Q: the staging password?` ⏎
    /// `A: x`): as [`Check::Prose`], unless the question asks something else
    /// than the password itself (who, where, which, why, how, when, whether).
    Answer,
    /// A URL's password: as is, unless it names a variable (`$DB_PASSWORD`).
    UrlPassword,
    /// A `user:password` pair: as is, unless the part after the colon is a
    /// port (digits), a placeholder or a reference, or the part before it is a
    /// scheme or a word of code (`std::x`, `ALL:ALL` of sudoers is no
    /// credential sentence).
    Pair,
    /// A bare bearer token: only when it looks random, and not cut short
    /// (`sk-...`) or asked for (`YOUR_TOKEN`).
    RandomLooking,
    /// A token after its scheme (`Authorization: Bearer x`): as is, unless it
    /// is cut short (`sk-...`) or asked for (`YOUR_TOKEN`).
    Given,
    /// A PEM BEGIN line: extend to the matching END line, or to the end of the text.
    PemBlock,
    /// A YAML key with a block scalar (`password: |`): the indented lines below.
    BlockScalar,
    /// `data:`/`stringData:` of a YAML document with `kind: Secret`: every value.
    KubernetesData,
    /// `"data": {…}` of a JSON object with `"kind": "Secret"`: every value.
    KubernetesJson,
    /// A markdown table row with a credential key cell (the next cell), or a
    /// header with a credential column (that column in every row below).
    Table,
    /// A heading that names credentials (`## Passwords`): the value of each
    /// `label: value` line of the list or lines under it.
    CredentialList,
}

/// One detector.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    pub(crate) kind: CredentialKind,
    /// Literals of which at least one occurs in every text the rule can flag.
    pub(crate) anchors: &'static [&'static str],
    /// Whether the anchors are matched exactly; otherwise ignoring ASCII case.
    pub(crate) exact: bool,
    pub(crate) pattern: &'static str,
    pub(crate) check: Check,
    /// For a rule that matches only a token right after its anchor (vendor
    /// keys, bearer tokens): each anchor with the fewest token bytes
    /// (`[A-Za-z0-9_+/=.~-]` or any byte outside ASCII) every match has after
    /// it, past any blanks. The rule runs only where one of its anchors is
    /// followed by that many (`kind-of-task-1` enables no key rule). Empty: no
    /// such test.
    pub(crate) tails: &'static [(&'static str, usize)],
    /// What every match has after an anchor on the anchor's line.
    pub(crate) line: Line,
    /// Words every match has besides its anchor (one of them, in lower case,
    /// anywhere in the text, after case folding): `aws` for the AWS secret
    /// key's `aws_secret_access_key`, `password` for a `.netrc` entry.
    pub(crate) also: &'static [&'static str],
}

/// What a rule is unless it says otherwise: anchors matched ignoring ASCII
/// case, no tail test, a match on any line, no other word needed. The kind,
/// anchors, pattern and check are every rule's own (these are placeholders).
pub(crate) const DEFAULTS: Rule = Rule {
    kind: CredentialKind::PasswordAssignment,
    anchors: &[],
    exact: false,
    pattern: "",
    check: Check::Plain,
    tails: &[],
    line: Line::Any,
    also: &[],
};
