//! What a documentation site's generator reads and a reader never sees, out of
//! the prose a summary is made from: MDX's `import`/`export` statements
//! (Docusaurus, Nextra), the `:::note` fences of admonitions (their content
//! stays), and Hugo's shortcodes (`{{< new-in 0.153 >}}`, `{{% note %}}`:
//! the tags go, the text between a pair stays, the code of a code shortcode
//! goes with it). Each line taken out is left empty, so line numbers hold;
//! fenced code is never touched (a held-out trial on Redux Toolkit's and
//! Hugo's docs found `import Tabs from '@theme/Tabs'; …`, `:::note` and
//! `{{< code-toggle >}}` in summaries).

use std::borrow::Cow;

use crate::markdown::fence_marker;

/// Shortcodes whose content is code or data, not prose.
const CODE_SHORTCODES: &[&str] = &["code-toggle", "highlight", "code", "codeblock", "datatable"];

/// `body` with the site syntax above blanked.
pub(crate) fn without_site_syntax(body: &str) -> Cow<'_, str> {
    let esm = body.contains("import ") || body.contains("export ");
    if !esm && !body.contains(":::") && !body.contains("{{<") && !body.contains("{{%") {
        return Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    let mut fence: Option<(char, usize)> = None;
    // In an `export` statement that runs to the next blank line.
    let mut in_export = false;
    // In a code shortcode's content: the closing tag that ends it.
    let mut in_code: Option<String> = None;
    for line in body.split_inclusive('\n') {
        let t = line.trim();
        if let Some((ch, n)) = fence {
            if fence_marker(t).is_some_and(|(c, m)| c == ch && m >= n) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if in_code.is_none()
            && !in_export
            && let Some(marker) = fence_marker(t)
        {
            fence = Some(marker);
            out.push_str(line);
            continue;
        }
        let blank = |out: &mut String| {
            if line.ends_with('\n') {
                out.push('\n');
            }
        };
        if let Some(close) = &in_code {
            if t.contains(close.as_str()) {
                in_code = None;
            }
            blank(&mut out);
            continue;
        }
        if in_export {
            in_export = !t.is_empty();
            blank(&mut out);
            continue;
        }
        if esm && is_import(t) {
            blank(&mut out);
            continue;
        }
        if esm && is_export(t) {
            in_export = !ends_statement(t);
            blank(&mut out);
            continue;
        }
        if is_admonition_fence(t) {
            blank(&mut out);
            continue;
        }
        if t.contains("{{<") || t.contains("{{%") {
            if let Some(close) = opens_code_shortcode(t) {
                if !t.contains(&close) {
                    in_code = Some(close);
                }
                blank(&mut out);
                continue;
            }
            out.push_str(&without_shortcodes(line));
            continue;
        }
        out.push_str(line);
    }
    Cow::Owned(out)
}

/// An ES module import: `import X from 'y'`, `import { a, b } from "y";`,
/// `import 'y'`.
fn is_import(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("import ") else {
        return false;
    };
    let rest = rest.trim_end_matches(';').trim_end();
    let quoted = |s: &str| {
        s.len() >= 2
            && ((s.starts_with('\'') && s.ends_with('\''))
                || (s.starts_with('"') && s.ends_with('"')))
    };
    quoted(rest)
        || rest
            .rsplit_once(" from ")
            .is_some_and(|(_, from)| quoted(from.trim()))
}

/// An ES module export: `export const X = …`, `export default …`,
/// `export function …`.
fn is_export(t: &str) -> bool {
    t.strip_prefix("export ").is_some_and(|rest| {
        [
            "const ",
            "let ",
            "var ",
            "default ",
            "function ",
            "async function ",
            "{",
        ]
        .iter()
        .any(|k| rest.starts_with(k))
    })
}

/// Whether an `export` line is a whole statement (its brackets closed, or a
/// `;` at its end).
fn ends_statement(t: &str) -> bool {
    let depth = t.chars().fold(0i32, |d, c| match c {
        '(' | '{' | '[' => d + 1,
        ')' | '}' | ']' => d - 1,
        _ => d,
    });
    depth <= 0 && (t.ends_with(';') || t.ends_with('}') || t.ends_with(')') || !t.ends_with("=>"))
}

/// `:::note`, `:::tip Title`, `::: warning`, `:::` alone: an admonition's
/// fence (Docusaurus, `VitePress`).
fn is_admonition_fence(t: &str) -> bool {
    t.strip_prefix(":::").is_some_and(|rest| {
        let rest = rest.trim_start_matches(':').trim();
        rest.is_empty()
            || rest.split_whitespace().next().is_some_and(|w| {
                w.chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '[' || c == ']')
            })
    })
}

/// The closing tag of a code shortcode `t` opens (`{{< highlight go >}}` →
/// `{{< /highlight`), if it opens one.
fn opens_code_shortcode(t: &str) -> Option<String> {
    for open in ["{{<", "{{%"] {
        if let Some(rest) = t.strip_prefix(open) {
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if CODE_SHORTCODES.contains(&name.as_str()) {
                return Some(format!("/{name}"));
            }
        }
    }
    None
}

/// `line` without its shortcode tags (`{{< x >}}`, `{{% /x %}}`, `{{< x />}}`).
fn without_shortcodes(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let at = [rest.find("{{<"), rest.find("{{%")]
            .into_iter()
            .flatten()
            .min();
        let Some(at) = at else {
            out.push_str(rest);
            break;
        };
        let close = if rest[at..].starts_with("{{<") {
            ">}}"
        } else {
            "%}}"
        };
        if let Some(end) = rest[at + 3..].find(close) {
            out.push_str(&rest[..at]);
            rest = &rest[at + 3 + end + close.len()..];
        } else {
            out.push_str(rest);
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: &str, expect: &str) {
        let got = without_site_syntax(body);
        assert_eq!(got, expect);
        assert_eq!(got.lines().count(), body.lines().count(), "{body:?}");
    }

    #[test]
    fn mdx_statements_go() {
        check(
            "import Tabs from '@theme/Tabs';\nimport TabItem from \"@theme/TabItem\";\nimport './x.css'\n\nexport const Highlight = ({children}) => (\n  <span>{children}</span>\n);\n\nInstall the CLI.\n",
            "\n\n\n\n\n\n\n\nInstall the CLI.\n",
        );
        check("export const meta = { title: 'x' };\nText.\n", "\nText.\n");
        // Prose that begins with the word stays.
        check(
            "import the data first, then export it as CSV.\n",
            "import the data first, then export it as CSV.\n",
        );
    }

    #[test]
    fn admonition_fences_go_their_content_stays() {
        check(
            ":::note\nA combined reducer.\n:::\n\n::: tip Prerequisites\nKnow the shell.\n:::\n",
            "\nA combined reducer.\n\n\n\nKnow the shell.\n\n",
        );
        check("a ::: b\n", "a ::: b\n");
    }

    #[test]
    fn shortcode_tags_go_code_shortcodes_whole() {
        check(
            "{{% note %}}\nYou need rclone 1.60 or later.\n{{% /note %}}\n",
            "\nYou need rclone 1.60 or later.\n\n",
        );
        check(
            "compression : {{< new-in 0.153.5 />}} : The encoding.\n",
            "compression :  : The encoding.\n",
        );
        check(
            "{{< code-toggle file=hugo >}}\n[taxonomies]\ngenre = 'genres'\n{{< /code-toggle >}}\nAfter.\n",
            "\n\n\n\nAfter.\n",
        );
    }

    #[test]
    fn fenced_code_is_untouched() {
        let body = "```js\nimport x from 'y';\n:::note\n{{< x >}}\n```\n";
        check(body, body);
    }
}
