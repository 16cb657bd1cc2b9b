//! Whether a rendering depends on the packet's `used_tokens`, as fitting relies
//! on: never says "no" when another value would change the text.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_assemble::*;
use cairn_render::*;

/// The render tests' packet (a decision, a task, a project) with a budget.
fn packet(used: usize) -> Packet {
    let mut p = crate::render::packet(vec![crate::render::item(
        "Use Kafka",
        "Events go through Kafka.",
    )]);
    p.budget.limit_tokens = 1500;
    p.budget.used_tokens = used;
    p.budget.left_out_count = 3;
    p
}

/// A rendering that says it does not read `used_tokens` is the same for any
/// value; one that differs says it does.
fn check(r: &Renderer, t: Target, f: Format) -> bool {
    let a = r.render_watching(&packet(7), t, f).unwrap();
    let b = r.render_watching(&packet(123_456), t, f).unwrap();
    assert_eq!(a.reads_used_tokens, b.reads_used_tokens, "{t}/{f}");
    if !a.reads_used_tokens {
        assert_eq!(a.text, b.text, "{t}/{f}");
    }
    if a.text != b.text {
        assert!(a.reads_used_tokens, "{t}/{f}");
    }
    assert_eq!(r.render(&packet(7), t, f).unwrap(), a.text, "{t}/{f}");
    a.reads_used_tokens
}

#[test]
fn every_builtin_rendering_says_whether_it_reads_used_tokens() {
    let r = Renderer::builtin().unwrap();
    for t in Target::ALL {
        for f in Format::ALL {
            let reads = check(&r, t, f);
            match f {
                Format::Json => assert!(reads, "{t}"),
                // The prompt templates never print it: fitting renders them
                // once per packet instead of twice.
                Format::Prompt => assert!(!reads, "{t}"),
                Format::Markdown => {}
            }
        }
    }
    assert!(check(&r, Target::Generic, Format::Markdown));
}

#[test]
fn every_way_a_template_can_reach_used_tokens_counts_as_a_read() {
    let reaching = [
        "{{ packet.budget.used_tokens }}",
        "{% if packet.budget.used_tokens > 100 %}big{% endif %}",
        "{{ packet.budget.limit_tokens - packet.budget.used_tokens }}",
        "{{ packet['budget']['used_tokens'] }}",
        "{% set b = packet.budget %}{{ b.used_tokens }}",
        "{{ packet.budget | tojson }}",
        "{{ packet | tojson }}",
        "{{ packet.budget }}",
        "{% for k, v in packet.budget | items %}{{ v }}{% endfor %}",
        "{% for k, v in packet.budget | dictsort %}{{ v }}{% endfor %}",
        "{% for k in packet.budget %}{{ packet.budget[k] }}{% endfor %}",
        "{{ packet.budget.get('used_tokens') }}",
    ];
    for source in reaching {
        match claude_prompt_from(source) {
            Ok(out) => assert!(out.reads_used_tokens, "{source}: {}", out.text),
            // A template minijinja cannot run is an error, not a silent pass.
            Err(e) => assert!(source.contains(".get("), "{source}: {e}"),
        }
    }
    let apart = [
        "{{ packet.budget.left_out_count }} left out",
        "{% if packet.budget %}{{ packet.budget.limit_tokens }}{% endif %}",
        "{{ packet.query.task }}",
    ];
    for source in apart {
        let out = claude_prompt_from(source).unwrap();
        assert!(!out.reads_used_tokens, "{source}: {}", out.text);
    }
}

/// The Claude prompt of `packet(7)` rendered by a template whose whole source is `source`.
fn claude_prompt_from(source: &str) -> Result<Rendering, RenderError> {
    Renderer::with_templates([("prompt/claude.j2".to_owned(), source.to_owned())])
        .unwrap()
        .render_watching(&packet(7), Target::Claude, Format::Prompt)
}
