//! Source topic regexes: Java's `Pattern.matcher(topic).matches()`, i.e. the whole
//! name must match. Topic names are ASCII (`[a-zA-Z0-9._-]`), so the small
//! `regex-lite` engine is enough: its ASCII `\w`, `\d`, `\s` and ASCII-only `(?i)`
//! are Java's defaults. What it cannot compile (look-around, back-references,
//! Unicode classes like `\p{L}`) is an invalid topology, caught when a member sends
//! it. The full `regex` crate made up about a third of the wasm module.

use crate::cluster::Cluster;
use crate::topology::names::RESERVED_TOPICS;
use std::collections::BTreeSet;

/// Bounds the compiled size so no pattern can make a request expensive.
const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern, anchored at both ends.
#[derive(Debug, Clone)]
pub struct Pattern(regex_lite::Regex);

impl Pattern {
    pub fn is_match(&self, topic: &str) -> bool {
        self.0.is_match(topic)
    }
}

/// Compiles `pattern` anchored at both ends; the error text is the compiler's.
pub fn compile(pattern: &str) -> Result<Pattern, String> {
    regex_lite::RegexBuilder::new(&format!("^(?:{pattern})$"))
        .size_limit(SIZE_LIMIT)
        .build()
        .map(Pattern)
        .map_err(|e| {
            let msg = e.to_string();
            if msg.contains("size limit") {
                "the pattern is too large".to_owned()
            } else {
                msg
            }
        })
}

/// The cluster's topics that `pattern` matches, sorted. Kafka's own topics and the
/// topology's internal topics (`exclude`) never match: a group must not read its own
/// changelogs through a broad pattern like `.*`.
pub fn matching_topics(
    pattern: &str,
    cluster: &Cluster,
    exclude: &BTreeSet<&str>,
) -> Result<Vec<String>, String> {
    let re = compile(pattern)?;
    Ok(cluster
        .topics
        .keys()
        .filter(|t| !RESERVED_TOPICS.contains(&t.as_str()) && !exclude.contains(t.as_str()))
        .filter(|t| re.is_match(t))
        .cloned()
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_name_match_like_java() {
        let re = compile("orders-.*").unwrap();
        assert!(re.is_match("orders-eu"));
        assert!(
            !re.is_match("old-orders-eu"),
            "matches() needs the whole name"
        );
        let re = compile("a|b").unwrap();
        assert!(re.is_match("a") && re.is_match("b") && !re.is_match("ab"));
        assert!(compile("topic-[0-9]+").unwrap().is_match("topic-12"));
    }

    #[test]
    fn java_only_constructs_do_not_compile() {
        for p in ["(?<=a)b", "(?=a)a", "(a)\\1", "[", "(unclosed"] {
            assert!(compile(p).is_err(), "{p}");
        }
    }

    #[test]
    fn ascii_classes_and_case_like_java() {
        let p = compile(r"\w+\.v[0-9]").unwrap();
        assert!(p.is_match("topic_a.v2") && !p.is_match("topic-a.v2"));
        let p = compile(r"[a-z]+-\d").unwrap();
        assert!(p.is_match("abc-1") && !p.is_match("abc-x"));
        let p = compile("(?i)orders|café").unwrap();
        assert!(p.is_match("ORDERS") && p.is_match("café") && !p.is_match("cafe"));
    }

    #[test]
    fn unicode_classes_are_refused() {
        let e = compile(r"\p{L}+").unwrap_err();
        assert!(e.contains("Unicode character classes"), "{e}");
    }

    #[test]
    fn huge_patterns_are_refused_not_compiled() {
        assert_eq!(
            compile("a{1000}{1000}").unwrap_err(),
            "the pattern is too large"
        );
    }

    #[test]
    fn excluded_and_reserved_topics_never_match() {
        let mut c = Cluster::new(3);
        for t in ["in-1", "in-2", "app-store-changelog", "__consumer_offsets"] {
            c.topics.insert(
                t.to_owned(),
                crate::cluster::TopicMetadata {
                    name: t.to_owned(),
                    num_partitions: 1,
                    replication_factor: 3,
                    configs: Default::default(),
                },
            );
        }
        let exclude: BTreeSet<&str> = ["app-store-changelog"].into_iter().collect();
        assert_eq!(
            matching_topics(".*", &c, &exclude).unwrap(),
            ["in-1", "in-2"]
        );
    }
}
