//! Source topic regexes: Java's `Pattern.matcher(topic).matches()`, i.e. the whole
//! name must match. The `regex` crate covers ordinary Java patterns; what it cannot
//! compile (look-around, back-references) is an invalid topology, caught when a
//! member sends it.

use crate::cluster::Cluster;
use crate::topology::names::RESERVED_TOPICS;
use std::collections::BTreeSet;

/// Bounds the compiled size so no pattern can make a request expensive.
const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern. Topic names are ASCII, where Java's default (ASCII) classes
/// and the `regex` crate's Unicode ones agree, so the much cheaper ASCII form is used
/// whenever the pattern allows it (no `\p{..}` class, no non-ASCII literal).
#[derive(Debug, Clone)]
pub enum Pattern {
    Ascii(regex::bytes::Regex),
    Unicode(regex::Regex),
}

impl Pattern {
    pub fn is_match(&self, topic: &str) -> bool {
        match self {
            Pattern::Ascii(r) => r.is_match(topic.as_bytes()),
            Pattern::Unicode(r) => r.is_match(topic),
        }
    }
}

/// Compiles `pattern` anchored at both ends; the error text is the compiler's.
pub fn compile(pattern: &str) -> Result<Pattern, String> {
    let anchored = format!("^(?:{pattern})$");
    if let Ok(r) = regex::bytes::RegexBuilder::new(&anchored)
        .unicode(false)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
    {
        return Ok(Pattern::Ascii(r));
    }
    regex::RegexBuilder::new(&anchored)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map(Pattern::Unicode)
        .map_err(|e| match e {
            regex::Error::Syntax(s) => {
                // The compiler's report quotes our anchored form; keep only its last line.
                s.lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("syntax error")
                    .trim()
                    .to_owned()
            }
            regex::Error::CompiledTooBig(_) => "the pattern is too large".to_owned(),
            _ => "the pattern cannot be compiled".to_owned(),
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
        for p in ["(?<=a)b", "(a)\\1", "[", "(unclosed"] {
            assert!(compile(p).is_err(), "{p}");
        }
    }

    #[test]
    fn unicode_patterns_still_work() {
        let p = compile(r"\p{L}+-\d").unwrap();
        assert!(matches!(p, Pattern::Unicode(_)));
        assert!(p.is_match("abc-1") && !p.is_match("abc-x"));
        let p = compile("(?i)orders|café").unwrap();
        assert!(p.is_match("ORDERS") && !p.is_match("cafe"));
        let p = compile(r"\w+\.v[0-9]").unwrap();
        assert!(matches!(p, Pattern::Ascii(_)));
        assert!(p.is_match("topic_a.v2") && !p.is_match("topic-a.v2"));
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
