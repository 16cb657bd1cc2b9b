use cairn_policy::*;
fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out)
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p)
        }
    }
}
#[test]
fn survey() {
    let mut files: Vec<std::path::PathBuf> = vec![];
    for l in std::fs::read_to_string(std::env::var("SURVEY").unwrap())
        .unwrap()
        .lines()
    {
        files.push(l.into());
    }
    let _ = walk;
    let mut n = 0;
    for f in files {
        let Ok(t) = std::fs::read_to_string(&f) else {
            continue;
        };
        for c in find_credentials(&t) {
            let ls = t[..c.start].rfind('\n').map_or(0, |i| i + 1);
            let le = t[c.end..].find('\n').map_or(t.len(), |i| c.end + i);
            println!(
                "{}:{} {:?} [{}] in {:?}",
                f.display(),
                c.line,
                c.kind,
                &t[c.start..t.floor_char_boundary(c.end.min(c.start + 80))],
                &t[ls..t.floor_char_boundary(le.min(ls + 200))]
            );
            n += 1;
        }
    }
    println!("total {n}");
}
