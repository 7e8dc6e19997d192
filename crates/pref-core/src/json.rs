//! Strict JSON for game records: a document is read into a [`serde_json::Value`] that
//! refuses a key given twice in one object (plain `serde_json` keeps the last one silently),
//! and values are written back in a compact, line-per-item layout a person can read and diff
//! ([`Out`], the one JSON layout writer of the workspace: records here, the `pref` command's
//! `--json` output in `pref-cli`).

use std::fmt::Write as _;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Parses `text` as one JSON document whose objects never repeat a key.
///
/// # Errors
/// The `serde_json` error, with its line and column, for broken JSON or a repeated key.
pub(crate) fn parse_strict(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

/// A JSON value read strictly: deserializing it (`serde_json::from_slice::<Strict>`)
/// refuses an object that gives a key twice, at any depth. The records' reader and the
/// protocol's reading of every request and message both use it.
#[derive(Debug)]
pub struct Strict(pub Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!("key {key:?} given twice")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// A JSON value to write, objects in the order given (a [`Map`] would sort the keys).
///
/// [`Out::write`] puts a value on one line when it fits in [`WIDTH`] characters and else one
/// item per line; [`Out::Lines`] and [`Out::Line`] fix the layout of a value whatever its
/// width.
#[derive(Clone, Debug)]
pub enum Out {
    /// A scalar, already in JSON form.
    Raw(String),
    /// An array.
    List(Vec<Out>),
    /// An object, keys in writing order.
    Object(Vec<(String, Out)>),
    /// A list or object written one item per line even when it would fit on one (`[]` or
    /// `{}` when empty); its items keep their own layout.
    Lines(Box<Out>),
    /// A value written on one line even when it is wider than [`WIDTH`].
    Line(Box<Out>),
}

impl Out {
    /// A JSON string.
    #[must_use]
    pub fn str(s: impl AsRef<str>) -> Out {
        Out::Raw(Value::String(s.as_ref().to_owned()).to_string())
    }

    /// Any scalar or small value that `serde_json` prints; objects keep their sorted keys.
    #[must_use]
    pub fn value(v: &Value) -> Out {
        match v {
            Value::Array(a) => Out::List(a.iter().map(Out::value).collect()),
            Value::Object(m) => {
                Out::Object(m.iter().map(|(k, v)| (k.clone(), Out::value(v))).collect())
            }
            other => Out::Raw(other.to_string()),
        }
    }

    /// A serde value as written, its objects' keys in the order it serializes them (where
    /// [`Out::value`] goes through a [`Map`], which sorts them): the way a type's own serde
    /// form, such as [`crate::outcome::OutcomeForm`], reaches the layout writer.
    ///
    /// # Panics
    /// If `v`'s `Serialize` fails, which only a map with keys other than strings does.
    #[must_use]
    pub fn of<T: serde::Serialize>(v: &T) -> Out {
        let text = serde_json::to_string(v).expect("a serde form with string keys serializes");
        serde_json::from_str::<Out>(&text).expect("serde_json reads what it wrote")
    }

    /// Writes the value with `indent` spaces before nested lines: anything that fits on one
    /// line of [`WIDTH`] characters stays on one line, larger lists and objects get a line
    /// per item ([`Out::Lines`] and [`Out::Line`] say otherwise).
    pub fn write(&self, indent: usize, out: &mut String) {
        match self {
            Out::Line(inner) => return out.push_str(&inner.flat()),
            Out::Lines(inner) => {
                return match &**inner {
                    Out::List(items) if items.is_empty() => out.push_str("[]"),
                    Out::Object(fields) if fields.is_empty() => out.push_str("{}"),
                    inner => inner.write_lines(indent, out),
                };
            }
            Out::Raw(_) | Out::List(_) | Out::Object(_) => {}
        }
        let flat = self.flat();
        if indent + flat.len() <= WIDTH {
            out.push_str(&flat);
            return;
        }
        self.write_lines(indent, out);
    }

    /// Writes a list or object one item per line, each item by [`Out::write`].
    fn write_lines(&self, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent + 2);
        match self {
            Out::Raw(s) => out.push_str(s),
            Out::Lines(_) | Out::Line(_) => self.write(indent, out),
            Out::List(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad);
                    item.write(indent + 2, out);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                let _ = write!(out, "{}]", " ".repeat(indent));
            }
            Out::Object(fields) => {
                out.push_str("{\n");
                for (i, (k, v)) in fields.iter().enumerate() {
                    let key = Value::String(k.clone()).to_string();
                    let _ = write!(out, "{pad}{key}: ");
                    v.write(indent + 2, out);
                    out.push_str(if i + 1 < fields.len() { ",\n" } else { "\n" });
                }
                let _ = write!(out, "{}}}", " ".repeat(indent));
            }
        }
    }

    /// The value on one line, with a space after each `,` and `:`.
    fn flat(&self) -> String {
        match self {
            Out::Raw(s) => s.clone(),
            Out::Lines(inner) | Out::Line(inner) => inner.flat(),
            Out::List(items) => {
                let parts: Vec<String> = items.iter().map(Out::flat).collect();
                format!("[{}]", parts.join(", "))
            }
            Out::Object(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), v.flat()))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }
}

/// Reads JSON text into an [`Out`] that keeps each object's keys in the text's order (for
/// [`Out::of`]).
impl<'de> Deserialize<'de> for Out {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Out, D::Error> {
        d.deserialize_any(OutVisitor)
    }
}

struct OutVisitor;

impl<'de> Visitor<'de> for OutVisitor {
    type Value = Out;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Out, E> {
        Ok(Out::Raw(v.to_string()))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Out, E> {
        Ok(Out::Raw(v.to_string()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Out, E> {
        Ok(Out::Raw(v.to_string()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Out, E> {
        Ok(Out::Raw(Value::from(v).to_string()))
    }

    fn visit_str<E>(self, v: &str) -> Result<Out, E> {
        Ok(Out::str(v))
    }

    fn visit_unit<E>(self) -> Result<Out, E> {
        Ok(Out::Raw("null".to_owned()))
    }

    fn visit_none<E>(self) -> Result<Out, E> {
        Ok(Out::Raw("null".to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Out, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<Out>()? {
            out.push(v);
        }
        Ok(Out::List(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Out, A::Error> {
        let mut out = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            out.push((key, map.next_value::<Out>()?));
        }
        Ok(Out::Object(out))
    }
}

/// The line width the writer keeps to where it can.
pub const WIDTH: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_repeated_key_anywhere() {
        assert!(parse_strict(r#"{"a": 1, "b": [{"c": 1}]}"#).is_ok());
        let e = parse_strict(r#"{"a": 1, "b": [{"c": 1, "c": 2}]}"#).unwrap_err();
        assert!(e.to_string().contains(r#"key "c" given twice"#), "{e}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(parse_strict(&deep).is_err());
    }

    #[test]
    fn of_keeps_the_order_a_type_serializes_its_fields_in() {
        #[derive(serde::Serialize)]
        struct Form {
            kind: &'static str,
            declarer: u8,
            made: Option<bool>,
            tricks: Vec<u8>,
        }
        let form = Form {
            kind: "game",
            declarer: 1,
            made: None,
            tricks: vec![6, 4],
        };
        let mut s = String::new();
        Out::of(&form).write(0, &mut s);
        assert_eq!(
            s,
            r#"{"kind": "game", "declarer": 1, "made": null, "tricks": [6, 4]}"#
        );
    }

    #[test]
    fn writes_short_values_on_one_line() {
        let v = Out::Object(vec![
            (
                "a".into(),
                Out::List(vec![Out::Raw("1".into()), Out::str("x")]),
            ),
            ("b".into(), Out::Raw("null".into())),
        ]);
        let mut s = String::new();
        v.write(0, &mut s);
        assert_eq!(s, r#"{"a": [1, "x"], "b": null}"#);
    }

    #[test]
    fn lines_break_what_would_fit_and_line_keeps_what_would_not() {
        let wide = Out::List((0..40).map(|i| Out::Raw(i.to_string())).collect());
        let v = Out::Lines(Box::new(Out::Object(vec![
            (
                "a".into(),
                Out::Lines(Box::new(Out::List(vec![Out::str("x"), Out::str("y")]))),
            ),
            ("b".into(), Out::Lines(Box::new(Out::List(Vec::new())))),
            ("c".into(), Out::Line(Box::new(wide))),
        ])));
        let mut s = String::new();
        v.write(0, &mut s);
        let numbers: Vec<String> = (0..40).map(|i| i.to_string()).collect();
        let expected = format!(
            "{{\n  \"a\": [\n    \"x\",\n    \"y\"\n  ],\n  \"b\": [],\n  \"c\": [{}]\n}}",
            numbers.join(", ")
        );
        assert_eq!(s, expected);
    }
}
