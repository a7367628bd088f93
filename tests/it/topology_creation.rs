//! PROTOCOL.md §5.5, internal topic creation: one creation in flight, completion after
//! the configured delay, exponential back-off after failures, no attempt without CREATE
//! permission, and the MISSING_INTERNAL_TOPICS detail for each case.

use crate::topology_support;

use serde_json::json;
use streams_rebalance::cluster::{Acl, Cluster, Operation, ResourceType};
use streams_rebalance::protocol::StatusCode;
use streams_rebalance::topology::creation::{
    config_mismatch_events, may_create, CreationEvent, CreationSettings, InternalTopicCreation,
};
use streams_rebalance::topology::{configure, ConfiguredInternalTopic};
use topology_support::{cluster, topology};

fn settings(delay_ms: i64, replication_factor: i16) -> CreationSettings {
    CreationSettings {
        delay_ms,
        backoff_ms: 1000,
        max_backoff_ms: 30_000,
        replication_factor,
    }
}

/// The internal topics a two-subtopology repartition topology over `in` (4 partitions) needs.
fn missing(c: &Cluster) -> Vec<ConfiguredInternalTopic> {
    let t = topology(json!([
        {"subtopologyId": "0", "sourceTopics": ["in"], "repartitionSinkTopics": ["app-r"]},
        {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "app-r"}],
         "stateChangelogTopics": [{"name": "app-c", "topicConfigs": [{"key": "cleanup.policy", "value": "compact"}]}]}
    ]));
    let conf = configure(&t, c).unwrap();
    match conf.status(StatusCode::MISSING_INTERNAL_TOPICS) {
        Some(_) => conf.internal_topics_to_create,
        None => Vec::new(),
    }
}

#[test]
fn creation_completes_after_the_delay() {
    let mut c = cluster(&[("in", 4)]);
    let s = settings(2000, 0);
    let mut cr = InternalTopicCreation::default();
    let m = missing(&c);
    assert_eq!(
        cr.detail(&m, true),
        "Internal topics are missing: app-c, app-r. Creation not attempted yet."
    );
    assert!(cr.on_missing(100, &m, true, &s));
    assert!(
        !cr.on_missing(200, &m, true, &s),
        "one creation in flight at a time"
    );
    assert_eq!(
        cr.detail(&m, true),
        "Internal topics are missing: app-c, app-r. Creation of app-c, app-r requested (attempt 1), completes at 2100 ms."
    );
    assert_eq!(cr.next_deadline(), Some(2100));
    assert!(cr.advance(2099, &mut c, &s).is_empty());
    assert!(c.topic("app-r").is_none());
    let ev = cr.advance(2100, &mut c, &s);
    assert_eq!(
        ev,
        [CreationEvent::Created {
            topics: vec!["app-c".into(), "app-r".into()]
        }]
    );
    assert_eq!(
        (ev[0].kind(), ev[0].detail().as_str()),
        (
            "internalTopicsCreated",
            "Created internal topics app-c, app-r."
        )
    );
    let made = c.topic("app-c").unwrap();
    assert_eq!(
        (made.num_partitions, made.replication_factor),
        (4, 3),
        "count from the input, cluster default replication factor"
    );
    assert_eq!(
        made.configs.get("cleanup.policy").map(String::as_str),
        Some("compact")
    );
    assert!(missing(&c).is_empty(), "the group is ready now");
    assert_eq!(cr.next_deadline(), None);
    assert_eq!(cr.attempts, 0);
}

#[test]
fn failures_back_off_exponentially() {
    // A replication factor above the simulated 3 brokers fails every time.
    let mut c = cluster(&[("in", 4)]);
    let s = settings(0, 5);
    let mut cr = InternalTopicCreation::default();
    let m = missing(&c);
    let mut t = 0;
    let mut waits = Vec::new();
    for attempt in 1..=7 {
        assert!(cr.on_missing(t, &m, true, &s), "attempt {attempt} at {t}");
        let ev = cr.advance(t, &mut c, &s);
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].kind(), "internalTopicsCreationFailed");
        waits.push(cr.next_attempt_at_ms - t);
        assert!(
            !cr.on_missing(cr.next_attempt_at_ms - 1, &m, true, &s),
            "too early"
        );
        t = cr.next_attempt_at_ms;
    }
    assert_eq!(waits, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    let why = "Unable to replicate the partition 5 time(s): The target replication factor of 5 cannot be reached because only 3 broker(s) are registered.";
    assert_eq!(
        cr.detail(&m, true),
        format!("Internal topics are missing: app-c, app-r. Creation attempt 7 failed: app-c (INVALID_REPLICATION_FACTOR: {why}); app-r (INVALID_REPLICATION_FACTOR: {why}). Next attempt at 91000 ms or later.")
    );
    assert!(c.topic("app-c").is_none());
    // A success resets the back-off.
    let s_ok = settings(0, 0);
    assert!(cr.on_missing(t, &m, true, &s_ok));
    let ev = cr.advance(t, &mut c, &s_ok);
    assert_eq!(ev[0].kind(), "internalTopicsCreated");
    assert_eq!((cr.attempts, cr.last_failure.clone()), (0, None));
}

#[test]
fn a_raced_topic_is_a_failure_the_next_check_resolves() {
    let mut c = cluster(&[("in", 4)]);
    let s = settings(1000, 0);
    let mut cr = InternalTopicCreation::default();
    let m = missing(&c);
    assert!(cr.on_missing(0, &m, true, &s));
    c.create_topic("app-r", 4, -1, Default::default());
    let ev = cr.advance(1000, &mut c, &s);
    let kinds: Vec<&str> = ev.iter().map(CreationEvent::kind).collect();
    assert_eq!(
        kinds,
        ["internalTopicsCreated", "internalTopicsCreationFailed"]
    );
    assert_eq!(
        ev[1],
        CreationEvent::Failed {
            topics: vec!["app-r".into()],
            reason: "Creation failed: app-r (TOPIC_ALREADY_EXISTS: Topic 'app-r' already exists.). Next attempt at 2000 ms or later.".into()
        }
    );
    assert!(missing(&c).is_empty());
}

#[test]
fn no_attempt_without_create_permission() {
    let mut c = cluster(&[("in", 4)]);
    let acl = |p: &str, rt, n: &str, op| Acl {
        principal: p.into(),
        resource_type: rt,
        resource_name: n.into(),
        operation: op,
    };
    c.set_acls(vec![
        acl("User:app", ResourceType::Group, "*", Operation::Read),
        acl("User:app", ResourceType::Topic, "*", Operation::Read),
    ]);
    let s = settings(0, 0);
    let mut cr = InternalTopicCreation::default();
    let m = missing(&c);
    let allowed = may_create(&m, &c, "User:app");
    assert!(!allowed);
    assert!(!cr.on_missing(0, &m, allowed, &s));
    assert_eq!(cr.attempts, 0);
    assert_eq!(
        cr.detail(&m, allowed),
        "Internal topics are missing: app-c, app-r. Unauthorized to CREATE on topics app-c, app-r: creating them needs CREATE on the cluster or on each topic, so no creation is attempted."
    );
    // CREATE on one topic of two is not enough.
    c.set_acls(vec![acl(
        "User:app",
        ResourceType::Topic,
        "app-r",
        Operation::Create,
    )]);
    assert!(!may_create(&m, &c, "User:app"));
    // CREATE on each topic, or on the cluster, is.
    c.set_acls(vec![
        acl("User:app", ResourceType::Topic, "app-r", Operation::Create),
        acl("User:app", ResourceType::Topic, "app-c", Operation::All),
    ]);
    assert!(may_create(&m, &c, "User:app"));
    assert!(!may_create(&m, &c, "User:other"));
    c.set_acls(vec![acl(
        "User:app",
        ResourceType::Cluster,
        "kafka-cluster",
        Operation::Create,
    )]);
    let allowed = may_create(&m, &c, "User:app");
    assert!(cr.on_missing(0, &m, allowed, &s));
    cr.advance(0, &mut c, &s);
    assert!(missing(&c).is_empty());
}

#[test]
fn configured_replication_factor_is_used_when_the_topic_has_none() {
    let mut c = Cluster::new(3);
    c.create_topic("in", 2, -1, Default::default());
    let s = settings(0, 2);
    let mut cr = InternalTopicCreation::default();
    let m = missing(&c);
    cr.on_missing(0, &m, true, &s);
    cr.advance(0, &mut c, &s);
    assert_eq!(c.topic("app-r").map(|t| t.replication_factor), Some(2));
}

#[test]
fn config_mismatches_are_reported_once() {
    let mut c = cluster(&[("in", 4), ("app-r", 4)]);
    let t = topology(json!([
        {"subtopologyId": "0", "sourceTopics": ["in"], "repartitionSinkTopics": ["app-r"]},
        {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "app-r"}],
         "stateChangelogTopics": [{"name": "app-c", "topicConfigs": [{"key": "cleanup.policy", "value": "compact"}]}]}
    ]));
    c.create_topic("app-c", 4, -1, Default::default());
    let first = configure(&t, &c).unwrap();
    assert!(first.is_ready());
    let ev = config_mismatch_events(None, &first);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].kind(), "internalTopicConfigMismatch");
    assert_eq!(
        ev[0].detail(),
        "Internal topic app-c exists with no cleanup.policy (the topology asks for cleanup.policy=compact)."
    );
    // The same difference again: nothing new.
    let again = configure(&t, &c).unwrap();
    assert!(config_mismatch_events(Some(&first), &again).is_empty());
    // A new difference is new.
    c.topics
        .get_mut("app-c")
        .unwrap()
        .configs
        .insert("cleanup.policy".into(), "delete".into());
    let third = configure(&t, &c).unwrap();
    let ev = config_mismatch_events(Some(&again), &third);
    assert_eq!(
        ev[0].detail(),
        "Internal topic app-c exists with cleanup.policy=delete (the topology asks for cleanup.policy=compact)."
    );
}
