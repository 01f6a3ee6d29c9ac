//! The runtime's own tests. They hold for any registry: they take codes from the table.

use std::time::Duration;

use serde_json::{json, Value};

use crate::response_spec::code_from_status;
use crate::*;

fn first() -> &'static CodeEntry {
    &RECOVERY_TABLE[0]
}

fn payload_for(entry: &CodeEntry, scope: &Scope) -> Value {
    let mut p = json!({
        wire::CODE: entry.wire,
        wire::CATEGORY: entry.category.as_str(),
        wire::RETRYABLE: entry.retryable,
        wire::SCOPE: scope.as_str(),
        wire::CORRELATION_ID: "c-1",
    });
    if *scope == Scope::Resource {
        p[wire::RESOURCE_ID] = json!("r-1");
    }
    p
}

fn response(headers: &[(&str, &str)], body: &Value) -> HttpParts {
    HttpParts {
        status: 503,
        headers: headers
            .iter()
            .map(|(n, v)| ((*n).to_string(), (*v).to_string()))
            .collect(),
        body: body.to_string().into_bytes(),
    }
}

/// An error response whose body holds no payload (not JSON, past the limit, or JSON without a
/// code) comes back as its body (the text, or the JSON as read), unless the registry reads the
/// code from the status (GitHub REST, Shopify): then the payload is the one built from the
/// status's registry row, as for any response of that API.
fn assert_payload_without_code(parts: &HttpParts, as_read: &Value) {
    let reading = read_http(parts, 0);
    assert!(reading.error);
    let payload = reading.payload.expect("an error response has a payload");
    if code_from_status() {
        assert_eq!(reading.code, Some(parts.status.to_string()));
        let built = parse_value(&payload).expect("built from the status");
        assert_eq!(built.correlation_id, "");
        assert_eq!(
            from_http(parts, 0),
            payload,
            "from_http is read_http's payload"
        );
    } else {
        assert_eq!(reading.code, None);
        assert_eq!(&payload, as_read);
    }
}

fn retryable_unknown() -> Value {
    json!({
        wire::CODE: "CODE_FROM_A_NEWER_SERVER",
        wire::CATEGORY: CATEGORIES[0].wire,
        wire::RETRYABLE: true,
        wire::SCOPE: Scope::Request.as_str(),
        wire::CORRELATION_ID: "c-2",
    })
}

#[test]
fn unknown_values_round_trip_exactly() {
    let code: Code = serde_json::from_str("\"NoSuchBucket\u{2028}\\\"x\"").unwrap();
    assert_eq!(code, Code::Unknown("NoSuchBucket\u{2028}\"x".to_owned()));
    assert_eq!(
        serde_json::to_string(&code).unwrap(),
        "\"NoSuchBucket\u{2028}\\\"x\""
    );
    let scope: Scope = serde_json::from_str("\"galaxy\"").unwrap();
    assert!(!scope.is_known());
    assert_eq!(serde_json::to_value(&scope).unwrap(), json!("galaxy"));
}

#[test]
fn known_values_use_their_exact_wire_strings() {
    for entry in RECOVERY_TABLE {
        assert_eq!(entry.code.as_str(), entry.wire);
        assert_eq!(Code::from_wire(entry.wire), entry.code);
        assert_eq!(
            serde_json::to_value(&entry.code).unwrap(),
            json!(entry.wire)
        );
        assert!(entry.code.is_known());
    }
    for entry in CATEGORIES {
        assert_eq!(entry.category.to_string(), entry.wire);
    }
    assert_eq!(Code::known().count(), RECOVERY_TABLE.len());
}

#[test]
fn every_code_in_every_scope_validates_and_decides_by_the_table() {
    for entry in RECOVERY_TABLE {
        for scope in entry.scopes {
            let raw = payload_for(entry, scope);
            let payload = validate(&raw).unwrap();
            assert_eq!(payload.to_value(), raw);
            assert_eq!(verdict(&raw), Verdict::Known);
            let decision = decide(&payload, 1, 5);
            assert_eq!(Some(&decision.action), entry.action_for(scope));
            assert_eq!(decision.reason, Reason::Registry);
            assert_eq!(decision.code.as_ref(), Some(&entry.code));
        }
    }
}

#[test]
fn parse_never_panics_on_junk_or_deep_nesting() {
    let deep = "[".repeat(100_000);
    assert!(parse(deep.as_bytes()).is_err());
    let deep_object = "{\"a\":".repeat(50_000) + "1" + &"}".repeat(50_000);
    assert!(parse(deep_object.as_bytes()).is_err());
    for junk in [
        &b"\xff\xfe"[..],
        b"",
        b"nul",
        b"{\"code\":",
        b"[1 2]",
        b"\"\\ud800\"",
        b"1e999",
    ] {
        let parsed = parse(junk);
        assert!(parsed.is_err(), "{junk:?}");
    }
    let mut bytes = Vec::new();
    let mut state = 7u64;
    for _ in 0..3_000 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        bytes.push(b"{}[]\",:0123456789.eE+-tfnul\\ "[(state >> 33) as usize % 29]);
        let _ = parse(&bytes);
    }
}

#[test]
fn nesting_is_bounded_by_the_policy() {
    let at_limit = "[".repeat(policy::MAX_JSON_DEPTH) + &"]".repeat(policy::MAX_JSON_DEPTH);
    assert!(read_json(at_limit.as_bytes()).is_some());
    let beyond = format!("[{at_limit}]");
    assert!(read_json(beyond.as_bytes()).is_none());
    // Brackets inside strings do not count.
    let text = format!("[\"{}\"]", "[".repeat(1000));
    assert!(read_json(text.as_bytes()).is_some());
}

#[test]
fn numbers_are_integral_within_the_contract_bounds() {
    let entry = RECOVERY_TABLE.iter().find(|e| e.retryable);
    let Some(entry) = entry else { return };
    let scope = &entry.scopes[0];
    let with_delay = |delay: &str| {
        let text = payload_for(entry, scope).to_string();
        let text = format!(
            "{},\"{}\":{delay}}}",
            &text[..text.len() - 1],
            wire::RETRY_AFTER_MS
        );
        read_json(text.as_bytes()).unwrap()
    };
    for ok in ["0", "2.0", "9007199254740991", "1e3"] {
        assert!(problems(&with_delay(ok)).is_empty(), "{ok}");
    }
    for bad in [
        "-1",
        "2.5",
        "9007199254740992",
        "18446744073709551616",
        "1e400",
        "\"5\"",
    ] {
        let ids: Vec<&str> = problems(&with_delay(bad)).iter().map(|p| p.id).collect();
        assert_eq!(ids, ["wrong-type"], "{bad}");
    }
    assert_eq!(
        parse(with_delay("2.0").to_string().as_bytes())
            .unwrap()
            .retry_after_ms,
        Some(2)
    );
}

#[test]
fn unknown_codes_are_kept_by_parse_and_rejected_by_validate() {
    let raw = retryable_unknown();
    let payload = parse_value(&raw).unwrap();
    assert!(!payload.is_known());
    assert_eq!(payload.code.as_str(), "CODE_FROM_A_NEWER_SERVER");
    assert_eq!(verdict(&raw), Verdict::Unknown);
    let ids: Vec<&str> = validate(&raw)
        .unwrap_err()
        .problems
        .iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, ["unknown-code"]);
    let decision = decide_value(&raw, 2, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(decision.action, Action::Retry);
    assert_eq!(decision.reason, Reason::UnknownCode);
    assert_eq!(decision.delay_ms, Some(backoff_ms(2)));
    let last = decide_value(&raw, 5, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(
        (last.action, last.reason, last.delay_ms),
        (Action::Escalate, Reason::AttemptsExhausted, None)
    );
}

#[test]
fn invalid_payloads_escalate_with_the_correlation_id_only() {
    let mut raw = payload_for(first(), &first().scope);
    raw["stack_trace"] = json!("Traceback ...");
    let decision = decide_value(&raw, 1, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(decision.action, Action::Escalate);
    assert_eq!(decision.reason, Reason::InvalidPayload);
    assert_eq!(decision.code, None);
    assert_eq!(decision.wire_code(), None);
    assert_eq!(decision.correlation_id.as_deref(), Some("c-1"));
    assert_eq!(verdict(&raw), Verdict::Invalid);
    assert_eq!(verdict(&json!([])), Verdict::Invalid);
}

#[test]
fn long_delays_escalate_and_backoff_is_bounded() {
    let mut raw = retryable_unknown();
    raw[wire::RETRY_AFTER_MS] = json!(policy::DEFAULT_MAX_DELAY_MS + 1);
    let decision = decide_value(&raw, 1, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(
        (decision.action, decision.reason),
        (Action::Escalate, Reason::DelayExceedsMax)
    );
    assert_eq!(backoff_ms(0), policy::BACKOFF_BASE_MS);
    assert_eq!(backoff_ms(u32::MAX), policy::BACKOFF_MAX_MS);
    assert!(full_jitter(1000) < 1000);
    assert_eq!(full_jitter(0), 0);
}

#[test]
fn http_round_trip_carries_payload_and_delay() {
    let raw = retryable_unknown();
    let mut payload = parse_value(&raw).unwrap();
    payload.retry_after_ms = Some(1500);
    payload.message = Some("later \u{2028} \"quoted\"".to_owned());
    let out = to_http_problem(&payload);
    assert_eq!(out.status, 500);
    assert_eq!(out.header("retry-after"), Some("2"));
    assert_eq!(out.header("Retry-After-Ms"), Some("1500"));
    assert_eq!(out.header("x-should-retry"), Some("true"));
    if crate::response_spec::xml_format() {
        // An XML API's body is its own document: the reading builds the payload from the code.
        assert_eq!(out.header("content-type"), Some("application/xml"));
        return;
    }
    assert_eq!(out.header("content-type"), Some("application/problem+json"));
    let back = from_http(&out, 0);
    assert_eq!(back, payload.to_value());
}

#[test]
fn http_headers_give_a_delay_only_in_their_exact_forms() {
    let body = retryable_unknown();
    let delay = |headers: &[(&str, &str)]| {
        from_http(&response(headers, &body), 784_111_777_000)
            .get(wire::RETRY_AFTER_MS)
            .cloned()
    };
    assert_eq!(delay(&[("Retry-After-Ms", " 250 ")]), Some(json!(250)));
    assert_eq!(delay(&[("retry-after", "3")]), Some(json!(3000)));
    assert_eq!(
        delay(&[("Retry-After", "3"), ("retry-after", "9")]),
        Some(json!(3000))
    );
    assert_eq!(
        delay(&[("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]),
        Some(json!(0))
    );
    assert_eq!(
        delay(&[("Retry-After", "Sun, 06 Nov 1994 08:49:40 GMT")]),
        Some(json!(3000))
    );
    assert_eq!(
        delay(&[("Retry-After", "99999999999999999999999")]),
        Some(json!(policy::MAX_DELAY_VALUE_MS))
    );
    assert_eq!(
        delay(&[("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")]),
        Some(json!(252_618_189_022_000u64))
    );
    // A JSON fraction of seconds is rounded to the microsecond first: 64.57 (Discord) is 64,570 ms.
    let seconds = |v: Value| crate::delays::seconds_ms(&v);
    assert_eq!(seconds(json!(64.57)), Some(64_570));
    assert_eq!(seconds(json!(0.0004)), Some(1));
    assert_eq!(seconds(json!(2.0)), Some(2000));
    assert_eq!(seconds(json!(1e300)), Some(policy::MAX_DELAY_VALUE_MS));
    assert_eq!(seconds(json!(-0.5)), None);
    // Decimal seconds, rounded up to the millisecond, exactly (no binary floating point).
    for (decimal, ms) in [
        ("1.5", 1500),
        ("2.128", 2128),
        ("1.0001", 1001),
        ("0.000000001", 1),
    ] {
        assert_eq!(
            delay(&[("Retry-After", decimal)]),
            Some(json!(ms)),
            "{decimal}"
        );
    }
    for ignored in [
        "-1",
        "1.",
        ".5",
        "1.0000000001",
        "1.5e3",
        "+3",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun,  06 Nov 1994 08:49:37 GMT",
        "Sun, 31 Feb 1994 08:49:37 GMT",
        "1994-11-06T08:49:37Z",
        "",
    ] {
        assert_eq!(delay(&[("Retry-After", ignored)]), None, "{ignored}");
    }
    let mut final_body = body.clone();
    final_body[wire::RETRYABLE] = json!(false);
    let read = from_http(&response(&[("Retry-After", "3")], &final_body), 0);
    assert!(read.get(wire::RETRY_AFTER_MS).is_none());
}

#[test]
fn http_bodies_that_are_not_json_stay_strings() {
    let mut parts = response(&[], &json!(null));
    parts.body = b"<html>Bad Gateway</html>".to_vec();
    assert_payload_without_code(&parts, &json!("<html>Bad Gateway</html>"));
    parts.body = b"[1]".to_vec();
    assert_payload_without_code(&parts, &json!([1]));
}

#[test]
fn mcp_round_trip_and_junk() {
    let payload = parse_value(&retryable_unknown()).unwrap();
    let result = to_mcp_result(&payload);
    assert_eq!(result["isError"], json!(true));
    assert_eq!(from_mcp_result(&result), payload.to_value());
    let text_only = json!({"content": [{"type": "image"}, {"type": "text", "text": result["content"][0]["text"]}]});
    assert_eq!(from_mcp_result(&text_only), payload.to_value());
    assert_eq!(from_mcp_result(&json!("x")), Value::Null);
    assert_eq!(
        from_mcp_result(&json!({"content": [{"type": "text", "text": "not json"}]})),
        Value::Null
    );
}

#[test]
fn new_error_fills_from_the_table_and_checks_the_result() {
    let entry = first();
    let payload = new_error_with(entry.code.clone(), "c-9", |p| {
        p.message = Some("display only".to_owned());
        if p.scope == Scope::Resource {
            p.resource_id = Some("r-9".to_owned());
        }
    })
    .unwrap();
    assert_eq!(payload.category, entry.category);
    assert_eq!(payload.retryable, entry.retryable);
    assert_eq!(payload.scope, entry.scope);
    assert!(payload.to_string().contains("c-9"));
    let err = new_error(Code::from_wire("NOT_IN_THIS_REGISTRY"), "c").unwrap_err();
    assert_eq!(err.problems[0].id, "unknown-code");
    let err = new_error_with(entry.code.clone(), "c", |p| {
        p.scope = Scope::from_wire("galaxy");
    });
    assert!(err.is_err());
    let boxed: Box<dyn std::error::Error> = Box::new(payload);
    assert!(boxed.to_string().starts_with(entry.wire));
}

#[test]
fn did_you_mean_picks_near_misses_in_order() {
    let allowed = ["tenant", "tenants", "tent", "talent", "other"];
    assert_eq!(
        did_you_mean("tenatn", &allowed, 3),
        ["tenant", "tenants", "tent"]
    );
    assert!(did_you_mean("tenant", &["tenant"], 3).is_empty());
    assert_eq!(did_you_mean("ab", &["xy", "ac"], 3), ["ac"]);
    assert_eq!(did_you_mean("日本語", &["日本人"], 3), ["日本人"]);
}

#[test]
fn flat_xml_reads_exactly_the_documented_grammar() {
    use crate::xml::read_xml;
    let read = |text: &str| read_xml(text);
    assert_eq!(
        read("<?xml version=\"1.0\"?>\n<Error><Code>NoSuchKey</Code><Message>a &amp; b &#x41;&#66;</Message><RequestId/></Error>"),
        Some(json!({"Error": {"Code": "NoSuchKey", "Message": "a & b AB", "RequestId": ""}}))
    );
    assert_eq!(read("<a x=\"1\" y='2' >t</a >"), Some(json!({"a": "t"})));
    assert_eq!(
        read("<a><b>1</b><b>2</b></a>"),
        Some(json!({"a": {"b": "1"}}))
    );
    // An element with children drops its text, undecoded.
    assert_eq!(read("<a>&bad;<b>1</b></a>"), Some(json!({"a": {"b": "1"}})));
    assert_eq!(read("<a>x<!-- c -->y</a>"), Some(json!({"a": "xy"})));
    assert_eq!(read("<!-- c --><a/>\n"), Some(json!({"a": ""})));
    let deepest = format!("{}{}", "<a>".repeat(16), "</a>".repeat(16));
    assert!(read(&deepest).is_some());
    let too_deep = format!("{}{}", "<a>".repeat(17), "</a>".repeat(17));
    for refused in [
        "<!DOCTYPE a><a/>",
        "<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>",
        "<a><![CDATA[x]]></a>",
        "<a>&foo;</a>",
        "<a>&#0;</a>",
        "<a>&#xD800;</a>",
        "<a>&#x110000;</a>",
        "<a>&#12345678;</a>",
        "<a>&#X41;</a>",
        "<a></b>",
        "<a>",
        "<a/><b/>",
        "<a/>x",
        "<a x=1/>",
        "<ax=\"1\"/>",
        "<a x=\"<\"/>",
        "<a/ >",
        "<!-->a",
        "< a/>",
        "",
        too_deep.as_str(),
    ] {
        assert_eq!(read(refused), None, "{refused}");
    }
}

#[test]
fn a_response_that_is_not_an_error_has_no_payload() {
    let mut parts = response(&[("retry-after-ms", "250")], &json!({}));
    parts.status = 200;
    let reading = read_http(&parts, 0);
    assert!(!reading.error);
    assert_eq!(reading.payload, None);
    assert_eq!(reading.document, Some(json!({})));
    // (Its delay depends on the registry's retry_after sources: not asserted, so this test holds
    // for every registry.)
    assert_eq!(from_http(&parts, 0), Value::Null);
}

#[test]
fn a_body_past_the_limit_or_not_utf8_is_unreadable_text() {
    let limit = usize::try_from(policy::MAX_BODY_BYTES).unwrap();
    let body = retryable_unknown().to_string();
    let mut parts = response(&[], &json!(null));
    parts.body = format!("{}{body}", " ".repeat(limit - body.len())).into_bytes();
    assert!(read_http(&parts, 0).document.is_some());
    parts.body.insert(0, b' ');
    let reading = read_http(&parts, 0);
    assert_eq!(reading.document, None);
    let text = String::from_utf8(parts.body.clone()).unwrap();
    assert_payload_without_code(&parts, &Value::String(text));
    parts.body = b"{\"a\": \"\xff\"}".to_vec();
    assert_eq!(read_http(&parts, 0).document, None);
    assert_payload_without_code(&parts, &json!("{\"a\": \"\u{fffd}\"}"));
    parts.body = "\u{feff}[1]".as_bytes().to_vec();
    assert_eq!(read_http(&parts, 0).document, Some(json!([1])));
}

#[test]
fn a_number_longer_than_the_limit_is_out_of_range_but_the_document_reads() {
    let long = "1".repeat(usize::try_from(policy::MAX_NUMBER_CHARS).unwrap() + 1);
    let mut raw = retryable_unknown();
    let mut parts = response(&[], &raw);
    parts.body = format!("{{\"n\": {long}, \"m\": -{long}, \"f\": 0.{long}}}").into_bytes();
    let document = read_http(&parts, 0).document.expect("still JSON");
    for key in ["n", "m", "f"] {
        let n = document[key].as_f64().unwrap();
        assert!(crate::json::out_of_range(n), "{key}: {n}");
    }
    // Not a number by JSON's grammar: the text stays unreadable, whatever its length.
    parts.body = format!("[{long}-1]").into_bytes();
    assert_eq!(read_http(&parts, 0).document, None);
    // Out of range is no valid delay: the payload escalates as invalid (a large number that is
    // in range would be a delay past the maximum instead).
    raw[wire::RETRY_AFTER_MS] = json!(1);
    let text = raw.to_string();
    let text = text.replacen(
        &format!("\"{}\":1", wire::RETRY_AFTER_MS),
        &format!("\"{}\":{long}", wire::RETRY_AFTER_MS),
        1,
    );
    parts.body = text.into_bytes();
    let payload = from_http(&parts, 0);
    assert_eq!(payload[wire::RETRY_AFTER_MS].as_f64(), Some(f64::MAX));
    let decision = decide_value(&payload, 1, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(decision.reason, Reason::InvalidPayload);
}

/// 1 MB of hostile input: each decided in under a second, nothing panics. The second holds for
/// an optimised build (`cargo test --release`, as errgen's tests run this one); an unoptimised
/// `serde_json` is about ten times slower, so a debug run only checks that nothing spins.
#[test]
fn hostile_megabytes_are_decided_quickly() {
    let budget_ms = if cfg!(debug_assertions) { 10_000 } else { 1000 };
    let size = usize::try_from(policy::MAX_BODY_BYTES).unwrap() - 16;
    let megabyte_headers: Vec<(String, String)> = (0..100_000)
        .map(|i| (format!("x-h-{i}"), "1".to_owned()))
        .chain([("retry-after-ms".to_owned(), "7".to_owned())])
        .collect();
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("deep arrays", "[".repeat(size).into_bytes()),
        ("deep objects", "{\"a\":".repeat(size / 5).into_bytes()),
        ("a number", "1".repeat(size).into_bytes()),
        (
            "a number in an object",
            format!("{{\"code\":{}}}", "9".repeat(size - 9)).into_bytes(),
        ),
        (
            "a string of digits",
            format!("\"{}\"", "1".repeat(size - 2)).into_bytes(),
        ),
        ("deep xml", "<a>".repeat(size / 3).into_bytes()),
        (
            "an open comment",
            format!("<!--{}", "-".repeat(size - 4)).into_bytes(),
        ),
        (
            "many entities",
            format!("<a>{}</a>", "&amp;".repeat(size / 5 - 2)).into_bytes(),
        ),
        (
            "escapes",
            format!("\"{}\"", "\\ud800".repeat(size / 6 - 1)).into_bytes(),
        ),
        ("twice the limit", " ".repeat(2 * size).into_bytes()),
    ];
    for (name, body) in bodies {
        for headers in [Vec::new(), megabyte_headers.clone()] {
            let parts = HttpParts {
                status: 429,
                headers,
                body: body.clone(),
            };
            let start = std::time::Instant::now();
            let reading = read_http(&parts, 0);
            let raw = reading.payload.clone().unwrap_or(Value::Null);
            let _ = decide_value(&raw, 1, 5, policy::DEFAULT_MAX_DELAY_MS);
            let _ = receive(&body).decide(1, 5, policy::DEFAULT_MAX_DELAY_MS);
            let _ = crate::xml::read_xml(std::str::from_utf8(&body).unwrap());
            let took = start.elapsed();
            assert!(took.as_millis() < budget_ms, "{name}: {took:?}");
            assert!(reading.error, "{name}");
            if parts.headers.len() > 100 {
                assert_eq!(
                    reading.delay_ms, None,
                    "{name}: the 100,001st header is never read"
                );
            }
        }
    }
    let long_value = vec![("retry-after-ms".to_owned(), "1".repeat(1 << 20))];
    let parts = HttpParts {
        status: 429,
        headers: long_value,
        body: Vec::new(),
    };
    assert_eq!(read_http(&parts, 0).delay_ms, None);
}

#[test]
fn serde_deserialization_applies_the_contract() {
    let entry = first();
    let valid = payload_for(entry, &entry.scope);
    let payload: ErrorPayload = serde_json::from_value(valid.clone()).unwrap();
    assert_eq!(payload.to_value(), valid);
    let mut galaxy = valid.clone();
    galaxy[wire::SCOPE] = json!("galaxy");
    let err = serde_json::from_value::<ErrorPayload>(galaxy).unwrap_err();
    assert!(err.to_string().contains(wire::SCOPE), "{err}");
    let mut missing = valid.clone();
    missing
        .as_object_mut()
        .unwrap()
        .remove(wire::CORRELATION_ID);
    assert!(serde_json::from_value::<ErrorPayload>(missing).is_err());
    let mut final_delay = valid;
    final_delay[wire::RETRYABLE] = json!(false);
    final_delay[wire::RETRY_AFTER_MS] = json!(5);
    assert!(serde_json::from_value::<ErrorPayload>(final_delay).is_err());
    // A newer server's code is kept, as `parse_value` keeps it.
    let newer: ErrorPayload = serde_json::from_str(&retryable_unknown().to_string()).unwrap();
    assert!(!newer.is_known());
}

#[test]
fn an_error_response_is_a_rust_error_carrying_its_payload() {
    let entry = first();
    let payload = new_error_with(entry.code.clone(), "c-7", |p| {
        if p.scope == Scope::Resource {
            p.resource_id = Some("r-7".to_owned());
        }
        if p.retryable {
            p.retry_after_ms = Some(1500);
        }
    })
    .unwrap();
    let reading = read_http(&to_http(&payload), 0);
    let err = reading.check().unwrap_err();
    assert_eq!(err.payload(), Some(&payload));
    assert_eq!(err.code(), Some(&entry.code));
    assert_eq!(err.is_retryable(), entry.retryable);
    assert_eq!(err.decide(1, 5), payload.decide(1, 5));
    if entry.retryable {
        assert_eq!(
            payload.retry_after(),
            Some(std::time::Duration::from_millis(1500))
        );
    }
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert!(boxed.to_string().contains("c-7"));
    let mut junk = response(&[], &json!(null));
    junk.body = b"<html>Bad Gateway</html>".to_vec();
    let err = read_http(&junk, 0).check().unwrap_err();
    if code_from_status() {
        // The status is the code: the error is that code's, decided by the registry.
        let status = junk.status.to_string();
        let payload = err.payload().expect("built from the status");
        assert_eq!(err.decide(1, 5), payload.decide(1, 5));
        assert!(recovery_entry(&status).is_none() || err.code().is_some_and(Code::is_known));
    } else {
        // No payload at all: decided by the status (503: pause), never an invalid payload.
        assert!(err.payload().is_none() && err.payload_error().is_some());
        assert!(std::error::Error::source(&err).is_some());
        let decision = err.decide(1, 5);
        assert_eq!(decision.reason, Reason::StatusFallback);
        assert_eq!(decision.action, status_action(503));
        assert!(err.is_retryable());
    }
    assert_eq!((err.status(), err.headers()), (503, &[][..]));
    junk.status = 200;
    junk.body = b"{}".to_vec();
    assert_eq!(read_http(&junk, 0).check(), Ok(()));
    let decision = decide_value(&retryable_unknown(), 1, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(
        decision.delay(),
        decision.delay_ms.map(std::time::Duration::from_millis)
    );
}

#[cfg(feature = "http")]
#[test]
fn an_http_crate_response_reads_back_as_its_error() {
    let entry = first();
    let payload = new_error_with(entry.code.clone(), "c-3", |p| {
        if p.scope == Scope::Resource {
            p.resource_id = Some("r-3".to_owned());
        }
        if p.retryable {
            p.retry_after_ms = Some(1500);
        }
    })
    .unwrap();
    let mut response = to_http_problem_response(&payload);
    let reading = read_http_response(&response, 0);
    assert_eq!(reading.check().unwrap_err().payload(), Some(&payload));
    assert_eq!(from_http_response(&response, 0), payload.to_value());
    // A header value that is not text is skipped, not read with replacement characters.
    let opaque = ::http::HeaderValue::from_bytes(b"\xff").unwrap();
    response.headers_mut().insert("retry-after-ms", opaque);
    response.headers_mut().remove("retry-after");
    assert_eq!(read_http_response(&response, 0).delay_ms, None);
}

/// Polls a future to completion on this thread: the futures here never wait on I/O, and the
/// crate depends on no async runtime.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};
    fn raw() -> RawWaker {
        RawWaker::new(std::ptr::null(), &VTABLE)
    }
    static VTABLE: RawWakerVTable = RawWakerVTable::new(|_| raw(), |_| {}, |_| {}, |_| {});
    // SAFETY: every function of the vtable ignores the (null) data pointer.
    let waker = unsafe { Waker::from_raw(raw()) };
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut context) {
            return value;
        }
    }
}

/// The error a client reads from a response of this registry for `entry`, as its service sends it.
fn response_error(entry: &CodeEntry, delay_ms: Option<u64>) -> ResponseError {
    let payload = new_error_with(entry.code.clone(), "c-r", |p| {
        if p.scope == Scope::Resource {
            p.resource_id = Some("r-r".to_owned());
        }
        if p.retryable {
            p.retry_after_ms = delay_ms;
        }
    })
    .unwrap();
    read_http(&to_http(&payload), 0).check().unwrap_err()
}

#[test]
fn retry_waits_what_decide_says_then_returns_the_last_error() {
    let policy = RetryPolicy::default().with_max_attempts(3);
    for entry in RECOVERY_TABLE {
        let error = response_error(entry, Some(1500));
        let timed = |attempt| {
            let decision = error.decide(attempt, 3);
            matches!(decision.action, Action::Retry | Action::Pause)
                .then(|| decision.delay().unwrap())
        };
        let expected: Vec<Duration> = (1..3).map_while(timed).collect();
        for run in 0..2 {
            let mut calls = 0;
            let mut slept = Vec::new();
            let call = || {
                calls += 1;
                Err::<(), _>(error.clone())
            };
            let result = if run == 0 {
                retry_blocking(&policy, call, |d| slept.push(d))
            } else {
                let mut call = call;
                block_on(retry(
                    &policy,
                    || std::future::ready(call()),
                    |d| {
                        slept.push(d);
                        std::future::ready(())
                    },
                ))
            };
            assert_eq!(result, Err(error.clone()), "{}", entry.wire);
            assert_eq!(slept, expected, "{}", entry.wire);
            assert_eq!(calls, expected.len() + 1, "{}", entry.wire);
        }
    }
}

/// An error that is neither an API response nor a transport failure (a caller's bug, say).
struct NotAResponse;

impl AsResponseError for NotAResponse {
    fn as_response_error(&self) -> Option<&ResponseError> {
        None
    }
}

#[test]
fn retry_returns_the_value_once_a_call_succeeds_and_never_waits_on_other_errors() {
    let Some(entry) = RECOVERY_TABLE.iter().find(|e| {
        e.retryable
            && e.action_for(&e.scope)
                .is_some_and(|a| matches!(a, Action::Retry))
    }) else {
        return; // a registry without a retryable code has nothing to retry
    };
    let error = response_error(entry, Some(1500));
    let mut answers = vec![Ok("done"), Err(error.clone()), Err(error)];
    let mut slept = Vec::new();
    let policy = RetryPolicy::default();
    let result = retry_blocking(&policy, || answers.pop().unwrap(), |d| slept.push(d));
    assert_eq!(result, Ok("done"));
    // An XML API's body carries no errgen delay: its Retry-After (whole seconds) is read instead.
    let waited = if crate::response_spec::xml_format() {
        Duration::from_secs(2)
    } else {
        Duration::from_millis(1500)
    };
    assert_eq!(slept, [waited; 2]);
    // An error that is neither an API response nor a transport failure is returned at once.
    let mut calls = 0;
    let result: Result<(), NotAResponse> = retry_blocking(
        &policy,
        || {
            calls += 1;
            Err(NotAResponse)
        },
        |_| unreachable!("no wait"),
    );
    assert!(result.is_err());
    assert_eq!(calls, 1);
    // A delay past the policy's bound escalates: no wait.
    let short = policy.clone().with_max_delay(Duration::from_millis(1499));
    assert_eq!(short.wait(&response_error(entry, Some(1500)), 1), None);
    assert_eq!(
        policy.wait(&response_error(entry, Some(1500)), 1),
        Some(waited)
    );
}

#[test]
fn jitter_spreads_a_backoff_only() {
    let raw = retryable_unknown();
    let error = ResponseError::of_payload(&raw);
    let decided = error.decide(2, 5).delay().unwrap();
    let policy = RetryPolicy::default().with_jitter(true);
    let waits: Vec<Duration> = (0..20).map(|_| policy.wait(&error, 2).unwrap()).collect();
    assert!(waits.iter().all(|w| *w < decided), "{waits:?}");
    let mut named = raw;
    named[wire::RETRY_AFTER_MS] = json!(1234);
    let error = ResponseError::of_payload(&named);
    assert_eq!(policy.wait(&error, 2), Some(Duration::from_millis(1234)));
}

/// `check_reqwest` on a response of one reqwest release line.
#[cfg(any(feature = "reqwest", feature = "reqwest-0-12"))]
macro_rules! reqwest_checked {
    ($name:ident, $krate:ident) => {
        #[test]
        fn $name() {
            let entry = first();
            let payload = new_error_with(entry.code.clone(), "c-4", |p| {
                if p.scope == Scope::Resource {
                    p.resource_id = Some("r-4".to_owned());
                }
                if p.retryable {
                    p.retry_after_ms = Some(1500);
                }
            })
            .unwrap();
            let response = ::$krate::Response::from(to_http_response(&payload));
            let err = block_on(check_reqwest(response)).unwrap_err();
            assert_eq!(
                err.as_response_error().and_then(ResponseError::payload),
                Some(&payload)
            );
            assert_eq!(err.transport_failure(), None);
            assert!(std::error::Error::source(&err).is_some());
            assert!(err.to_string().contains("c-4"));
            let mut ok = ::http::Response::new(b"{}".to_vec());
            ok.headers_mut()
                .insert("x-a", ::http::HeaderValue::from_static("1"));
            let parts = block_on(check_reqwest(::$krate::Response::from(ok))).unwrap();
            assert_eq!((parts.status, parts.body.as_slice()), (200, &b"{}"[..]));
            assert_eq!(parts.header("X-A"), Some("1"));
            // A URL reqwest refuses before connecting: its error is a transport failure.
            let refused = block_on(::$krate::Client::new().get("http://[::1").send()).unwrap_err();
            let failure = failure_of(&refused);
            let error = ReqwestError::from(refused);
            assert_eq!(error.transport_failure(), failure);
            assert!(failure.is_some() && error.as_response_error().is_none());
        }
    };
}

#[cfg(feature = "reqwest")]
reqwest_checked!(a_reqwest_response_is_checked_in_one_call, reqwest);
#[cfg(feature = "reqwest-0-12")]
reqwest_checked!(a_reqwest_0_12_response_is_checked_in_one_call, reqwest_0_12);

#[test]
fn the_integer_minus_zero_reads_as_zero_and_the_float_keeps_its_sign() {
    let read = read_json(br#"{"a":-0,"b":-0.0,"c":"-0","d":[-0e0,-01]}"#);
    assert_eq!(read, None); // -01 is no JSON number
    let read = read_json(br#"{"a":-0,"b":-0.0,"c":"x\"-0","d":[-0e0,-0]}"#).unwrap();
    assert_eq!(
        read.to_string(),
        r#"{"a":0,"b":-0.0,"c":"x\"-0","d":[-0.0,0]}"#
    );
}

#[test]
fn to_http_writes_members_in_the_order_they_are_put() {
    if crate::response_spec::xml_format() {
        return; // an XML API's body holds the API's own shape alone
    }
    let payload = new_error_with(RECOVERY_TABLE[0].code.clone(), "c-1", |p| {
        p.message = Some("m".to_owned());
        p.resource_id = Some("r-1".to_owned()); // the first code may be scoped to a resource (Stripe's)
    })
    .unwrap();
    let body = String::from_utf8(to_http_problem(&payload).body).unwrap();
    assert!(body.starts_with(r#"{"type":"#), "{body}");
}

/// `receive(bytes)` against `read_json` + `problems` / `verdict` / `decide_value` on the same
/// bytes: every problem (ids, messages, order), the verdict and the decision alike.
fn received_as_read(bytes: &[u8]) {
    let shown = String::from_utf8_lossy(bytes);
    let received = receive(bytes);
    let raw = read_json(bytes);
    let as_value = raw.clone().unwrap_or(Value::Null);
    for (attempt, max_attempts, max_delay_ms) in [
        (1, 5, policy::DEFAULT_MAX_DELAY_MS),
        (5, 5, 100),
        (2, 9, 10),
    ] {
        let decision = received.decide(attempt, max_attempts, max_delay_ms);
        assert_eq!(
            decision,
            decide_value(&as_value, attempt, max_attempts, max_delay_ms),
            "{shown}"
        );
        let jittered = received.decide_with_jitter(attempt, max_attempts, max_delay_ms, || 0.5);
        let expected =
            decide_value_with_jitter(&as_value, attempt, max_attempts, max_delay_ms, || 0.5);
        assert_eq!(jittered, expected, "{shown}");
    }
    if let Some(raw) = raw {
        assert_eq!(received.problems(), problems(&raw).as_slice(), "{shown}");
        assert_eq!(received.verdict(), verdict(&raw), "{shown}");
        assert_eq!(received.is_valid(), validate(&raw).is_ok(), "{shown}");
    } else {
        let ids: Vec<&str> = received.problems().iter().map(|p| p.id).collect();
        assert_eq!(ids, [problem::NOT_AN_OBJECT], "{shown}");
        assert_eq!(received.verdict(), Verdict::Invalid, "{shown}");
        assert_eq!(
            parse(bytes).unwrap_err().problems,
            received.problems(),
            "{shown}"
        );
    }
}

/// A payload's JSON text with `extra` inserted as its first members (`extra` ends with a comma).
fn payload_text(entry: &CodeEntry, extra: &str) -> String {
    let scope = entry.scopes[0].clone();
    let payload = payload_for(entry, &scope).to_string();
    format!("{{{extra}{}", &payload[1..])
}

#[test]
#[allow(clippy::too_many_lines)] // one table of cases, each a line or two
fn receive_reads_bytes_as_read_json_and_checks_them_as_the_value_checks() {
    let entry = first();
    let retrying = RECOVERY_TABLE.iter().find(|e| e.retryable).unwrap_or(entry);
    let hinted = RECOVERY_TABLE
        .iter()
        .find(|e| !e.hints.is_empty())
        .unwrap_or(entry);
    let members = [
        "",
        " \n\t\r",
        "\"zz\":1,\"aa\":[],",
        "\"zz\":1,\"zz\":2,",
        "\"zz\":1,\"message\":7,\"aa\":[],\"zz\":3,\"correlation_id\":false,\"b\":0,",
        "\"\\u0063ode\":\"NOT_A_CODE\",",
        "\"message\":\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\",",
        "\"message\":\"\\ud800\",\"resource_id\":\"\\udc00x\\ud800\\u0041\\ud800\\ud800\\udc00\",",
        "\"message\":\"\\x\",",
        "\"message\":\"\\u12\",",
        "\"message\":\"\\ud800\\uZZZZ\",",
        "\"message\":\"tab\there\",",
        "\"message\":7,",
        "\"message\":null,",
        "\"scope\":\"resource\",",
        "\"scope\":\"nowhere\",",
        "\"retryable\":\"yes\",",
        "\"category\":\"not-a-category\",",
        "\"correlation_id\":[\"c\"],",
        "\"extra\":{\"a\":[1,{\"b\":null}],\"c\":true},",
        "\"extra\":[1,2,,],",
        "\"extra\":tru,",
        "\"extra\":nul,",
        "\"extra\":01,",
        "\"extra\":1.,",
        "\"extra\":-,",
        "\"extra\":1-2,",
        "\"extra\":01e999,",
        "\"extra\":1.e999,",
        "\"extra\":{\"a\" 1},",
        "\"extra\":{1:2},",
    ];
    let mut texts: Vec<String> = members.iter().map(|m| payload_text(entry, m)).collect();
    for delay in [
        "5",
        "5.0",
        "5.5",
        "-0",
        "-0.0",
        "-1",
        "1e400",
        "-1e400",
        "1e-400",
        "0e999999999999",
        "9007199254740991",
        "9007199254740992",
        "18446744073709551616",
        "\"5\"",
        "null",
        &"1".repeat(70),
        &format!("-{}", "1".repeat(70)),
        &"1".repeat(64),
    ] {
        texts.push(payload_text(
            retrying,
            &format!("\"retry_after_ms\":{delay},"),
        ));
        texts.push(payload_text(entry, &format!("\"retry_after_ms\":{delay},")));
    }
    for hint in [
        "\"searched\":{\"q\":\"x\",\"n\":-0,\"f\":1.5,\"t\":true,\"q\":\"y\",\"big\":1e400}",
        "\"searched\":{\"q\":null}",
        "\"searched\":{\"q\":[1]}",
        "\"searched\":{}",
        "\"searched\":[]",
        "\"did_you_mean\":[\"a\",\"b\\u0063\"]",
        "\"did_you_mean\":[\"a\",1]",
        "\"did_you_mean\":[]",
        "\"accepted\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]",
        "\"did_you_mean\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]",
        "\"state\":\"unchanged\"",
        "\"state\":\"sideways\"",
        "\"safe_to_replay\":false",
    ] {
        texts.push(payload_text(hinted, &format!("{hint},")));
        texts.push(payload_text(entry, &format!("{hint},")));
    }
    let deep = |n: usize| {
        payload_text(
            entry,
            &format!("\"extra\":{}1{},", "[".repeat(n), "]".repeat(n)),
        )
    };
    texts.extend([
        deep(policy::MAX_JSON_DEPTH - 1),
        deep(policy::MAX_JSON_DEPTH),
    ]);
    let body = payload_text(entry, "");
    texts.extend([
        format!("{body} "),
        format!(" {body}x"),
        format!("{body},"),
        body.replace('}', ",}"),
        format!("\u{feff}{body}"),
        String::new(),
        "  ".to_owned(),
        "[1,\"a\"]".to_owned(),
        "\"text\"".to_owned(),
        "-0".to_owned(),
        "null".to_owned(),
        "{}".to_owned(),
        "{\"correlation_id\":\"c-9\"}".to_owned(),
        "{\"correlation_id\":\"c-9\",\"code\":1}".to_owned(),
    ]);
    for text in &texts {
        received_as_read(text.as_bytes());
    }
    received_as_read(b"{\"code\":\"\xff\"}");
    received_as_read(&body.as_bytes()[..body.len() - 1]);
    for entry in RECOVERY_TABLE.iter().take(50) {
        for scope in entry.scopes {
            received_as_read(payload_for(entry, scope).to_string().as_bytes());
        }
    }
}

#[test]
fn every_contract_field_has_a_slot_in_a_received_payload() {
    assert_eq!(crate::data::FIELDS.len(), crate::received::SLOTS);
}

/// Fields outside the contract and fields of the wrong type are reported in the order the
/// payload's `serde_json::Map` iterates (by key; in document order with `preserve_order`), from
/// bytes as from a value.
#[test]
fn envelope_problems_follow_the_maps_own_order() {
    let text = b"{\"zz\":1,\"message\":7,\"aa\":[],\"zz\":3,\"correlation_id\":false,\"b\":0}";
    let raw = read_json(text).unwrap();
    let keys: Vec<&str> = raw
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let named = |found: &[Problem]| -> Vec<String> {
        found
            .iter()
            .filter(|p| p.id == problem::EXTRA_FIELD || p.id == problem::WRONG_TYPE)
            .map(|p| p.message.split('"').nth(1).unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(named(&problems(&raw)), keys);
    assert_eq!(named(receive(text).problems()), keys);
}

#[test]
fn every_known_value_spells_its_own_wire_string() {
    for row in crate::data::RECOVERY_TABLE {
        assert_eq!(row.code.as_str(), row.wire);
        assert_eq!(Code::from_wire(row.code.as_str()), row.code);
    }
    for row in crate::data::CATEGORIES {
        assert_eq!(row.category.as_str(), row.wire);
    }
    assert_eq!(
        Code::from_wire("NOT_A_CODE_OF_THIS_REGISTRY").as_str(),
        "NOT_A_CODE_OF_THIS_REGISTRY"
    );
}

#[test]
fn a_header_is_written_only_when_its_value_is_visible_ascii_within_the_limit() {
    let limit = usize::try_from(policy::MAX_HEADER_CHARS).unwrap();
    let (at_limit, past_limit) = ("7".repeat(limit), "7".repeat(limit + 1));
    assert!(crate::writing::writable(" ~ visible ASCII and space"));
    assert!(crate::writing::writable(&at_limit));
    for refused in [
        "",
        "a\r\nSet-Cookie: x=1",
        "nul\0",
        "tab\t",
        "del\u{7f}",
        "caf\u{e9}",
        &past_limit,
    ] {
        assert!(!crate::writing::writable(refused), "{refused:?}");
    }
    // Every fact a registry may write to a header, hostile: no header carries it, the body does.
    let entry = first();
    let clean = parse_value(&payload_for(entry, &entry.scope)).unwrap();
    for hostile in ["a\r\nSet-Cookie: x=1", "nul\0", "caf\u{e9}", &past_limit] {
        let mut payload = clean.clone();
        payload.message = Some(hostile.to_owned());
        payload.correlation_id = hostile.to_owned();
        payload.resource_id = Some(hostile.to_owned());
        for (parts, plain) in [
            (to_http(&payload), to_http(&clean)),
            (to_http_problem(&payload), to_http_problem(&clean)),
        ] {
            assert!(parts
                .headers
                .iter()
                .all(|(_, v)| crate::writing::writable(v)));
            let names =
                |p: &HttpParts| p.headers.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
            assert!(names(&parts).iter().all(|n| names(&plain).contains(n)));
            assert_eq!(
                parts.header("x-should-retry"),
                plain.header("x-should-retry")
            );
            let body = String::from_utf8(parts.body).unwrap();
            assert!(body.contains("Set-Cookie") || !hostile.contains("Set-Cookie"));
        }
    }
}

/// A response of `status` with `headers` and a body that is no payload (a proxy's page).
fn codeless(status: u16, headers: &[(&str, &str)], body: &str) -> HttpReading {
    let mut parts = response(headers, &json!(null));
    parts.status = status;
    parts.body = body.as_bytes().to_vec();
    read_http(&parts, 0)
}

#[test]
fn a_response_without_a_payload_is_decided_by_its_status() {
    if code_from_status() {
        return; // every response of such an API has a code: its status
    }
    let html = "<html><body>502 Bad Gateway</body></html>";
    let limit = policy::DEFAULT_MAX_DELAY_MS;
    let decision = decide_response(&codeless(502, &[], html), 1, 5, limit);
    assert_eq!(
        (&decision.action, decision.reason, decision.delay_ms),
        (
            &status_action(502),
            Reason::StatusFallback,
            Some(backoff_ms(1))
        )
    );
    assert_eq!((decision.code, decision.resource_id), (None, None));
    // Decimal seconds (Microsoft Graph's Retry-After: 2.128) are rounded up to the millisecond.
    let bare = codeless(429, &[("Retry-After", "2.128")], "");
    let decision = decide_response(&bare, 1, 5, limit);
    assert_eq!(
        (decision.reason, decision.delay_ms),
        (Reason::StatusFallback, Some(2128))
    );
    assert_eq!(decision.action, status_action(429));
    // A 403 that names a wait is a rate limit (GitHub's secondary limits): pause.
    let limited = codeless(403, &[("Retry-After", "60")], "");
    if !matches!(status_action(403), Action::Retry | Action::Pause) {
        let decision = decide_response(&limited, 1, 5, limit);
        assert_eq!(
            (decision.action, decision.delay_ms),
            (Action::Pause, Some(60_000))
        );
    }
    // The timing rule: the last attempt, and a delay past the bound.
    let decision = decide_response(&bare, 5, 5, limit);
    assert_eq!(decision.reason, Reason::AttemptsExhausted);
    let decision = decide_response(&bare, 1, 5, 2000);
    assert_eq!(
        (decision.action, decision.reason),
        (Action::Escalate, Reason::DelayExceedsMax)
    );
    // Jitter draws a backoff only.
    let drawn = decide_response_with_jitter(&codeless(502, &[], ""), 2, 5, limit, || 0.5);
    assert_eq!(drawn.delay_ms, Some(backoff_ms(2) / 2));
    let named = decide_response_with_jitter(&bare, 1, 5, limit, || 0.5);
    assert_eq!(named.delay_ms, Some(2128));
    // Not an error: decided as its payload (none: escalate).
    let fine = decide_response(&codeless(200, &[], "{}"), 1, 5, limit);
    assert_eq!(fine.reason, Reason::InvalidPayload);
}

#[test]
fn status_actions_follow_the_exact_status_then_its_class() {
    for status in [0, 99, 600, u16::MAX] {
        assert_eq!(status_action(status), Action::Escalate);
    }
    let spec = &crate::response_spec::spec().status_actions;
    for status in [301, 400, 401, 404, 418, 429, 500, 502, 503, 599] {
        let key = spec
            .get(&status.to_string())
            .or_else(|| spec.get(&format!("{}xx", status / 100)));
        let expected = key.map_or(Action::Escalate, |a| Action::from_wire(a));
        assert_eq!(status_action(status), expected, "{status}");
    }
}

#[test]
fn transport_failures_are_retried_when_the_request_never_left_or_may_be_sent_twice() {
    let limit = policy::DEFAULT_MAX_DELAY_MS;
    for failure in [Failure::Refused, Failure::Tls] {
        let decision = decide_failure(failure, false, 1, 5, limit);
        assert_eq!(
            (decision.action, decision.reason, decision.delay_ms),
            (Action::Retry, Reason::TransportFailure, Some(backoff_ms(1)))
        );
    }
    for failure in [Failure::Reset, Failure::Timeout] {
        let decision = decide_failure(failure, false, 1, 5, limit);
        assert_eq!(
            (decision.action, decision.reason, decision.delay_ms),
            (Action::Escalate, Reason::OutcomeUnknown, None)
        );
        let decision = decide_failure(failure, true, 2, 5, limit);
        assert_eq!(decision.delay_ms, Some(backoff_ms(2)));
        let last = decide_failure(failure, true, 5, 5, limit);
        assert_eq!(
            (last.action, last.reason),
            (Action::Escalate, Reason::AttemptsExhausted)
        );
    }
    let drawn = decide_failure_with_jitter(Failure::Refused, false, 3, 5, limit, || 0.25);
    assert_eq!(drawn.delay_ms, Some(backoff_ms(3) / 4));
    assert_eq!(Failure::from_name("eof"), Failure::Reset);
    let kinds = [
        (std::io::ErrorKind::ConnectionRefused, Failure::Refused),
        (std::io::ErrorKind::TimedOut, Failure::Timeout),
        (std::io::ErrorKind::ConnectionReset, Failure::Reset),
        (std::io::ErrorKind::UnexpectedEof, Failure::Reset),
    ];
    for (kind, failure) in kinds {
        let wrapped: Box<dyn std::error::Error> = Box::new(std::io::Error::from(kind));
        assert_eq!(failure_of(wrapped.as_ref()), Some(failure));
    }
    let other: Box<dyn std::error::Error> = "a bug".into();
    assert_eq!(failure_of(other.as_ref()), None);
}

#[test]
fn the_retry_helpers_retry_transport_failures_and_tell_the_observer() {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let policy = RetryPolicy::default()
        .with_max_attempts(3)
        .on_attempt(move |a| {
            let entry = (a.attempt, a.error_type.clone(), a.wait, a.failure, a.status);
            log.lock().unwrap().push(entry);
        });
    let reset = || std::io::Error::from(std::io::ErrorKind::ConnectionReset);
    let mut calls = 0;
    let result: Result<(), _> = retry_blocking(
        &policy,
        || {
            calls += 1;
            Err(reset())
        },
        |_| unreachable!("a reset of a call that is not idempotent is not sent again"),
    );
    assert!(result.is_err() && calls == 1);
    let idempotent = policy.clone().with_idempotent(true);
    let mut slept = Vec::new();
    let mut calls = 0;
    let result: Result<(), _> = retry_blocking(
        &idempotent,
        || {
            calls += 1;
            Err(reset())
        },
        |d| slept.push(d),
    );
    assert!(result.is_err() && calls == 3);
    let backoff = |a| Duration::from_millis(backoff_ms(a));
    assert_eq!(slept, [backoff(1), backoff(2)]);
    let reset = Some(Failure::Reset);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            (1, "reset".to_owned(), None, reset, None),
            (1, "reset".to_owned(), Some(backoff(1)), reset, None),
            (2, "reset".to_owned(), Some(backoff(2)), reset, None),
            (3, "reset".to_owned(), None, reset, None),
        ]
    );
    // A codeless 502 is retried, and the observer sees its status as the error type.
    if code_from_status() {
        return;
    }
    seen.lock().unwrap().clear();
    let mut answers = vec![
        Ok("done"),
        codeless(502, &[], "<html></html>").check().map(|()| ""),
    ];
    let result = retry_blocking(&policy, || answers.pop().unwrap(), |_| {});
    assert_eq!(result, Ok("done"));
    let wait =
        Some(backoff(1)).filter(|_| matches!(status_action(502), Action::Retry | Action::Pause));
    assert_eq!(
        *seen.lock().unwrap(),
        [(1, "502".to_owned(), wait, None, Some(502))]
    );
}

#[test]
fn the_caught_error_is_one_pointer_for_result() {
    assert_eq!(
        std::mem::size_of::<ResponseError>(),
        std::mem::size_of::<usize>()
    );
}

#[test]
fn a_code_written_with_a_fraction_or_exponent_is_read_correctly_rounded() {
    // Each an integer once correctly rounded to an f64, as every other SDK reads it; serde_json's
    // fast path (without float_roundtrip) read them one unit off, or as a fraction.
    let code = |text: &str| crate::reading::code_text(&read_json(text.as_bytes()).unwrap());
    assert_eq!(
        code("106484018009143000000e-5").as_deref(),
        Some("1064840180091430")
    );
    assert_eq!(
        code("8226159683861093.836630").as_deref(),
        Some("8226159683861094")
    );
    assert_eq!(
        code("6407649541440582.68").as_deref(),
        Some("6407649541440583")
    );
    assert_eq!(code("2640955469188917.569557"), None); // 2640955469188917.5: a fraction
    assert_eq!(code("9007199254740992.0"), None); // past 2^53 - 1
    assert_eq!(code("-32601.0").as_deref(), Some("-32601"));
    assert_eq!(code("1e3").as_deref(), Some("1000"));
}

#[test]
fn a_decision_carries_the_code_as_the_api_sends_it() {
    // An unknown code is sent as itself.
    let decision = decide_value(&retryable_unknown(), 1, 5, policy::DEFAULT_MAX_DELAY_MS);
    assert_eq!(decision.wire_code(), Some("CODE_FROM_A_NEWER_SERVER"));
    // A known code: its registry row's wire code, the one `to_http` writes.
    for entry in RECOVERY_TABLE {
        let raw = payload_for(entry, &entry.scope);
        let decision = decide_value(&raw, 1, 5, policy::DEFAULT_MAX_DELAY_MS);
        let sent = crate::response_spec::wire_code(entry.wire).map_or(entry.wire, |(sent, _)| sent);
        assert_eq!(decision.wire_code(), Some(sent), "{}", entry.wire);
    }
}

/// What a `tracing` subscriber sees of the retry helpers: the fields recorded on the caller's
/// span, and one event per failed attempt.
#[cfg(feature = "tracing")]
mod traced {
    use std::fmt::Debug;
    use std::sync::{Arc, Mutex};

    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event, Metadata, Subscriber};

    #[derive(Default)]
    pub struct Seen {
        pub span_fields: Vec<String>,
        pub events: Vec<String>,
        current: Option<(Id, &'static Metadata<'static>)>,
        meta: Option<&'static Metadata<'static>>,
    }

    struct Fields<'a>(&'a mut Vec<String>);

    impl Visit for Fields<'_> {
        fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
            self.0.push(format!("{}={value:?}", field.name()));
        }
    }

    #[derive(Clone, Default)]
    pub struct Recorder(pub Arc<Mutex<Seen>>);

    impl Subscriber for Recorder {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, span: &Attributes<'_>) -> Id {
            self.0.lock().unwrap().meta = Some(span.metadata());
            Id::from_u64(1)
        }
        fn record(&self, _: &Id, values: &Record<'_>) {
            values.record(&mut Fields(&mut self.0.lock().unwrap().span_fields));
        }
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, event: &Event<'_>) {
            let mut fields = Vec::new();
            event.record(&mut Fields(&mut fields));
            let line = format!("{} {}", event.metadata().level(), fields.join(" "));
            self.0.lock().unwrap().events.push(line);
        }
        fn enter(&self, span: &Id) {
            let mut seen = self.0.lock().unwrap();
            seen.current = seen.meta.map(|meta| (span.clone(), meta));
        }
        fn exit(&self, _: &Id) {
            self.0.lock().unwrap().current = None;
        }
        fn current_span(&self) -> tracing_core::span::Current {
            match &self.0.lock().unwrap().current {
                Some((id, meta)) => tracing_core::span::Current::new(id.clone(), meta),
                None => tracing_core::span::Current::none(),
            }
        }
    }
}

#[cfg(feature = "tracing")]
#[test]
fn tracing_sees_each_attempt_and_marks_the_span_only_when_the_call_fails() {
    let reset = || std::io::Error::from(std::io::ErrorKind::ConnectionReset);
    let policy = RetryPolicy::default()
        .with_idempotent(true)
        .with_max_attempts(3);
    let run = |fail_times: u32| {
        let recorder = traced::Recorder::default();
        let mut calls = 0;
        tracing::subscriber::with_default(recorder.clone(), || {
            let span = tracing::info_span!("call", error.type = tracing::field::Empty);
            let _entered = span.enter();
            let result: Result<u32, std::io::Error> = retry_blocking(
                &policy,
                || {
                    calls += 1;
                    if calls > fail_times {
                        Ok(calls)
                    } else {
                        Err(reset())
                    }
                },
                |_| {},
            );
            assert_eq!(result.is_ok(), fail_times < 3);
        });
        let seen = recorder.0.lock().unwrap();
        (seen.span_fields.clone(), seen.events.clone())
    };
    // Reset twice, then the answer: two `info` events, and the span is not marked as failed.
    let (span_fields, events) = run(2);
    assert!(span_fields.is_empty(), "{span_fields:?}");
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().all(|e| e.starts_with("INFO ")
        && e.contains("error.type=\"reset\"")
        && e.contains("action=\"retry\"")));
    // Reset on every attempt: the last is a `warn`, and the span gets `error.type`.
    let (span_fields, events) = run(3);
    assert_eq!(span_fields, ["error.type=\"reset\""]);
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events[2].starts_with("WARN ") && events[2].contains("attempt=3"));
}
