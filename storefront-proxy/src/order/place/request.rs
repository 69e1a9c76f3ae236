//! The request of `POST /store-api/checkout/order`: optional comment and codes, and
//! the terms, which a client that sends them must accept.

use serde_json::{json, Map, Value};

use crate::error::{ApiError, Violation};

const MAX_COMMENT_LENGTH: usize = 5000;
const MAX_CODE_LENGTH: usize = 255;

/// The optional fields of the request.
#[derive(Debug, Default, PartialEq)]
pub struct Request {
    pub customer_comment: Option<String>,
    pub affiliate_code: Option<String>,
    pub campaign_code: Option<String>,
}

fn optional_text(
    body: &Map<String, Value>,
    key: &str,
    max: usize,
    violations: &mut Vec<Violation>,
) -> Option<String> {
    match body.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if text.chars().count() > max => {
            violations.push(Violation::new(
                "VIOLATION::TOO_LONG_ERROR",
                format!("/{key}"),
                format!("This value is too long. It should have {max} characters or less."),
            ));
            None
        }
        Some(Value::String(text)) => Some(text.trim().to_owned()).filter(|t| !t.is_empty()),
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                format!("/{key}"),
                "This value should be of type string.",
            ));
            None
        }
    }
}

pub fn parse(body: &Map<String, Value>) -> Result<Request, ApiError> {
    let mut violations = Vec::new();
    // The store API does not ask for the terms; a client that sends them must send true.
    if let Some(tos) = body.get("tos") {
        let accepted = matches!(tos, Value::Bool(true))
            || matches!(tos, Value::String(s) if s == "true" || s == "1")
            || tos == &json!(1);
        if !accepted {
            violations.push(Violation::new(
                "VIOLATION::NOT_TRUE_ERROR",
                "/tos",
                "The terms and conditions must be accepted.",
            ));
        }
    }
    let request = Request {
        customer_comment: optional_text(
            body,
            "customerComment",
            MAX_COMMENT_LENGTH,
            &mut violations,
        ),
        affiliate_code: optional_text(body, "affiliateCode", MAX_CODE_LENGTH, &mut violations),
        campaign_code: optional_text(body, "campaignCode", MAX_CODE_LENGTH, &mut violations),
    };
    if violations.is_empty() {
        Ok(request)
    } else {
        Err(ApiError::Violations(violations))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn texts_are_trimmed_and_empty_ones_dropped() {
        let request = parse(&body(
            json!({ "customerComment": "  ring twice ", "affiliateCode": "", "tos": "1" }),
        ))
        .ok();
        assert_eq!(
            request,
            Some(Request {
                customer_comment: Some("ring twice".into()),
                ..Request::default()
            })
        );
    }

    #[test]
    fn refused_terms_long_texts_and_wrong_types_are_violations() {
        let long = "x".repeat(MAX_CODE_LENGTH + 1);
        let Err(ApiError::Violations(violations)) = parse(&body(
            json!({ "tos": false, "campaignCode": long, "affiliateCode": 3 }),
        )) else {
            panic!("expected violations");
        };
        assert_eq!(violations.len(), 3);
    }
}
