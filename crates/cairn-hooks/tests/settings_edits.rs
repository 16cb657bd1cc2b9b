//! Settings-file edits as data: the entry each client gets (snapshots), and properties
//! over generated settings files: install keeps every other key, installing twice
//! changes nothing, uninstall gives back the original text.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_hooks::Client;
use cairn_hooks::install::HookKind;
use cairn_hooks::install::json::{
    find_hooks, find_kind, install_hook, install_kind, install_mcp, uninstall_hook, uninstall_kind,
    uninstall_mcp,
};
use cairn_hooks::install::{Change, McpCommand};
use proptest::prelude::*;
use serde_json::Value;

fn command(client: Client) -> String {
    format!(
        "/opt/cairn/bin/cairn hook session-start --client {client} --config /home/u/notes/cairn.toml"
    )
}

fn mcp() -> McpCommand {
    McpCommand {
        command: "/opt/cairn/bin/cairn".into(),
        args: vec![
            "mcp".into(),
            "--config".into(),
            "/home/u/notes/cairn.toml".into(),
        ],
    }
}

const EXISTING: &str = r#"{
  "theme": "dark",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh" }] }
    ]
  }
}
"#;

fn prompt_command(client: Client) -> String {
    format!("/opt/cairn/bin/cairn hook prompt --client {client} --config /home/u/notes/cairn.toml")
}

#[test]
fn each_clients_entry() {
    for client in Client::ALL {
        let (out, change) = install_hook(EXISTING, client, &command(client)).unwrap();
        assert_eq!(change, Change::Added);
        let (out, change) =
            install_kind(&out, client, HookKind::Prompt, &prompt_command(client)).unwrap();
        // Cursor's prompt hook cannot add context: none is written.
        let expected = if client == Client::Cursor {
            Change::Unchanged
        } else {
            Change::Added
        };
        assert_eq!(change, expected, "{client}");
        let (out, _) = install_mcp(&out, &mcp(), client == Client::Claude).unwrap();
        insta::assert_snapshot!(format!("entry_{client}"), out);
        // The two hooks are told apart, and each uninstalls alone.
        assert_eq!(find_hooks(&out, client).unwrap(), vec![command(client)]);
        let prompts = find_kind(&out, client, HookKind::Prompt).unwrap();
        assert_eq!(prompts.len(), usize::from(client != Client::Cursor));
        let (only_start, _) = uninstall_kind(&out, client, HookKind::Prompt).unwrap();
        assert!(
            find_kind(&only_start, client, HookKind::Prompt)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            find_hooks(&only_start, client).unwrap(),
            vec![command(client)]
        );
    }
}

/// Settings-like JSON objects: nested objects, arrays, other hooks.
fn settings() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-1000i64..1000).prop_map(Value::from),
        "[a-z ./:-]{0,12}".prop_map(Value::from),
    ];
    let value = leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-zA-Z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    let other_hook = "[a-z./ -]{1,20}".prop_map(|cmd| {
        serde_json::json!({ "matcher": "startup", "hooks": [{ "type": "command", "command": cmd }] })
    });
    let cursor_hook = "[a-z./ -]{1,20}".prop_map(|cmd| serde_json::json!({ "command": cmd }));
    (
        prop::collection::btree_map("[a-zA-Z_]{1,8}", value, 0..5),
        prop::collection::vec(other_hook, 1..3),
        prop::collection::vec(cursor_hook, 1..3),
        any::<bool>(),
    )
        .prop_map(|(mut top, starts, cursor_starts, with_hooks)| {
            top.remove("hooks");
            top.remove("version");
            if with_hooks {
                // Other tools' session-start hooks, for every client's event key.
                top.insert(
                    "hooks".into(),
                    serde_json::json!({ "SessionStart": starts, "sessionStart": cursor_starts }),
                );
            }
            Value::Object(top.into_iter().collect())
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn install_is_idempotent_keeps_the_rest_and_uninstall_restores(v in settings(), pretty in any::<bool>()) {
        let text = if pretty {
            format!("{}\n", serde_json::to_string_pretty(&v).unwrap())
        } else {
            serde_json::to_string(&v).unwrap()
        };
        for client in Client::ALL {
            let cmd = command(client);
            let (installed, change) = install_hook(&text, client, &cmd).unwrap();
            prop_assert_eq!(change, Change::Added);
            let (installed, _) = install_mcp(&installed, &mcp(), false).unwrap();
            prop_assert_eq!(find_hooks(&installed, client).unwrap(), vec![cmd.clone()]);

            // Every key of the original is still there with its value.
            let after: Value = serde_json::from_str(&installed).unwrap();
            for (k, val) in v.as_object().unwrap() {
                if k != "hooks" {
                    prop_assert_eq!(&after[k], val);
                }
            }

            let (again, change) = install_hook(&installed, client, &cmd).unwrap();
            prop_assert_eq!(change, Change::Unchanged);
            prop_assert_eq!(&again, &installed);

            let (removed, _) = uninstall_mcp(&installed).unwrap();
            let (removed, change) = uninstall_hook(&removed, client).unwrap();
            prop_assert_eq!(change, Change::Removed);
            let back: Value = serde_json::from_str(&removed).unwrap();
            let mut expected = v.clone();
            if client == Client::Cursor {
                // Cursor's file gains a version key, which stays.
                expected.as_object_mut().unwrap().insert("version".into(), Value::from(1));
            }
            prop_assert_eq!(back, expected);
        }
    }
}
