//! Values that are code, not secrets: a type after a key (`password: String`),
//! an expression or call (`token = get_token()`), a grammar rule, a macro
//! fragment, or a command that prints or fetches the secret (`$(pass show db)`).
//! One of the questions [`crate::benign`] asks about a value.

use crate::benign::{is_constant_name, is_variable_name};

/// Type names that follow a key in code (`password: String,`, `token: u32`).
const TYPE_NAMES: &[&str] = &[
    "string",
    "str",
    "bytes",
    "secretstring",
    "secretbox",
    "number",
    "bool",
    "boolean",
    "int",
    "integer",
    "text",
    "varchar",
    "char",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "c_char",
    "c_int",
    "c_long",
    "c_void",
    "any",
    "unknown",
    "object",
    "buffer",
    "uint8array",
];

/// Names of the objects a dotted code reference usually starts from
/// (`config.password`, `self.token`).
const OBJECT_NAMES: &[&str] = &[
    "self", "this", "config", "cfg", "conf", "settings", "env", "process", "os", "ctx", "context",
    "opts", "options", "args", "params", "req", "request", "secrets", "vars", "inputs", "app",
    "state", "props", "node", "var", "local", "module", "data", "each", "matrix", "steps", "needs",
    "github", "runner", "input", "values",
];

/// Whether an unquoted value is code rather than a literal: a path (`::`), a
/// reference (`&str`), a call or index (`getpass()`, `os.environ["PW"]`,
/// `Token(0);`), a generic type (`Option<String>`) or a type name (`String,`).
/// A literal secret in code is quoted, and quoted values are always redacted.
pub(crate) fn is_code(value: &str) -> bool {
    if value.starts_with([':', '{']) || value.contains("::") {
        return true;
    }
    // A parenthesised expression: `(getState() as RootState).auth.token`.
    if let Some(inner) = value.strip_prefix('(')
        && !inner.is_empty()
        && is_code(inner)
    {
        return true;
    }
    // An array type: `[u8; 32]`.
    if let Some(inner) = value.strip_prefix('[') {
        let elem = inner.split([';', ']']).next().unwrap_or("");
        if TYPE_NAMES.contains(&elem.to_ascii_lowercase().as_str()) {
            return true;
        }
    }
    let bare = trim_code_punctuation(value);
    if value.starts_with("*mut") || value.starts_with("*const") || is_constant_name(bare) {
        return true;
    }
    // A reference: `&str`, `&[u8]`, `&'a str`, `&mut x`.
    if value.strip_prefix('&').is_some_and(|v| {
        v.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '[' | '\''))
    }) {
        return true;
    }
    // Optional chaining and non-null assertions read as plain member access.
    let chained = value.replace("?.", ".").replace("!.", ".");
    let ident_len = chained
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        .count();
    let starts_ident = value.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    let after = &chained.as_bytes()[ident_len..];
    let call = matches!(after.first(), Some(b'(' | b'[' | b'<'))
        || (after.first() == Some(&b'!') && matches!(after.get(1), Some(b'(' | b'[' | b'{')));
    if starts_ident && call {
        return true;
    }
    if TYPE_NAMES.contains(&bare.to_ascii_lowercase().as_str()) {
        return true;
    }
    // A lowercase dotted path: code when it ends like code or starts from a
    // well-known object (`node.semi_token,`, `config.db.password`).
    let mut segments = bare.split('.');
    let first = segments.next().unwrap_or("");
    let snake = |seg: &str| {
        seg.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && seg
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    };
    let rest: Vec<&str> = segments.collect();
    // A class or module and its members: `Rails.application.credentials.secret_key_base`,
    // `SecureRandom.uuid`, `ENV.fetch` (a capitalised word, then snake_case members).
    let class = first.starts_with(|c: char| c.is_ascii_uppercase())
        && first.len() >= 3
        && first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if class && !rest.is_empty() && rest.iter().all(|seg| snake(seg) && seg.len() >= 2) {
        return true;
    }
    // An environment variable read by its name: `process.env.APPLEIDPASS`,
    // `import.meta.env.TEAMID` (the name in capitals, without an underscore),
    // from the objects that hold them (not any `prod.env.K8SPASS24`).
    if let Some((last, path)) = rest.split_last()
        && path.iter().any(|seg| matches!(*seg, "env" | "environ"))
        && matches!(first, "process" | "import" | "os")
        && path.iter().all(|seg| snake(seg))
        && last.starts_with(|c: char| c.is_ascii_uppercase())
        && last
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return true;
    }
    !rest.is_empty()
        && snake(first)
        && rest.iter().all(|seg| snake(seg) || is_constant_name(seg))
        && (bare.len() < value.len()
            || OBJECT_NAMES.contains(&first)
            || is_variable_name(first)
            || rest.iter().any(|seg| is_variable_name(seg)))
}

/// `value` without the punctuation code puts after it (`None):` → `None`).
pub(crate) fn trim_code_punctuation(value: &str) -> &str {
    value.trim_end_matches([',', ';', ')', ':', '>', '}', ']'])
}

/// A capitalised identifier that code punctuation follows: a type in a
/// signature or a field (`password: SecretStr = Field(…)`, `token: Token,`).
pub(crate) fn is_type_annotation(value: &str, rest: &str) -> bool {
    let bare = trim_code_punctuation(value);
    let ident = bare.starts_with(|c: char| c.is_ascii_uppercase())
        && bare.bytes().any(|b| b.is_ascii_lowercase())
        && bare.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_');
    ident
        && (bare.len() < value.len()
            || rest
                .trim_start()
                .starts_with(['=', '|', ',', ')', '{', '&', '+']))
}

/// The core rules of ABNF (RFC 5234) and the older `TEXT`, `OCTET`.
const ABNF_RULES: &[&str] = &[
    "ALPHA", "BIT", "CHAR", "CR", "CRLF", "CTL", "DIGIT", "DQUOTE", "HEXDIG", "HTAB", "LF", "LWSP",
    "OCTET", "SP", "VCHAR", "WSP", "TEXT",
];

/// ABNF and similar grammars (`token = 1*tchar`, `token68 = 1*( ALPHA / … )`,
/// `pin = %x30-39`, `secret = 32OCTET`).
pub(crate) fn is_grammar(value: &str) -> bool {
    let digits = value.trim_start_matches(|c: char| c.is_ascii_digit());
    if digits.len() < value.len() && ABNF_RULES.contains(&digits) {
        return true;
    }
    let repetition = digits.strip_prefix('*').is_some_and(|rule| {
        value.len() - digits.len() <= 2
            && (rule.is_empty()
                || rule.starts_with('(')
                || rule.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    });
    repetition
        || ["%x", "%d", "%b"]
            .iter()
            .any(|p| value.starts_with(p) && value.len() > 2)
}

/// The fragment specifiers of a `macro_rules!` matcher (`$token:tt`).
const MACRO_FRAGMENTS: &[&str] = &[
    "tt",
    "expr",
    "expr_2021",
    "ident",
    "ty",
    "pat",
    "pat_param",
    "path",
    "literal",
    "lifetime",
    "meta",
    "item",
    "block",
    "stmt",
    "vis",
];

/// Whether `value` is a macro fragment specifier, possibly followed by matcher
/// punctuation (`tt)*)`, `expr,`).
pub(crate) fn is_macro_fragment(value: &str) -> bool {
    let bare = value.trim_end_matches([')', '*', '+', '?', ',', ';', ']', '}', '$']);
    MACRO_FRAGMENTS.contains(&bare)
}

/// Commands that print or fetch a secret: a value that runs one is where the
/// secret comes from, not the secret.
const COMMANDS: &[&str] = &[
    "openssl",
    "pwgen",
    "head",
    "cat",
    "echo",
    "printf",
    "vault",
    "pass",
    "op",
    "aws",
    "gcloud",
    "az",
    "kubectl",
    "security",
    "gpg",
    "sops",
    "base64",
    "tr",
    "date",
    "uuidgen",
    "python",
    "python3",
    "node",
    "ruby",
    "perl",
    "lpass",
    "bw",
    "gopass",
    "keyring",
    "secret-tool",
    "doppler",
    "jq",
    "yq",
    "curl",
    "xkcdpass",
    "diceware",
    "apg",
    "mkpasswd",
    "htpasswd",
    "ssh-keygen",
    "age-keygen",
    "wg",
    "terraform",
    "heroku",
    "gh",
    "glab",
    "git",
    "docker",
    "sed",
    "awk",
    "cut",
    "dd",
    "shuf",
    "od",
    "xxd",
    "sha256sum",
    "md5sum",
    "systemd-creds",
];

/// A shell command in a code span (`` `openssl rand -hex 32` ``): it produces a
/// secret, it is not one. Needs arguments: a known command, or flags.
pub(crate) fn is_command(value: &str) -> bool {
    let mut tokens = value.split_whitespace();
    let Some(first) = tokens.next() else {
        return false;
    };
    let args: Vec<&str> = tokens.collect();
    if args.is_empty() {
        return false;
    }
    let name = first.rsplit('/').next().unwrap_or(first);
    if COMMANDS.contains(&name) || value.contains(" | ") {
        return true;
    }
    let command_like = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'));
    command_like
        && args.iter().any(|a| {
            a.strip_prefix('-')
                .is_some_and(|f| f.starts_with(|c: char| c.is_ascii_alphabetic() || c == '-'))
        })
}
