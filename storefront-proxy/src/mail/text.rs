//! The texts of the shop's mails, in English and German.

use rusqlite::{Connection, OptionalExtension};

use super::{escape_html, Mail};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    De,
}

impl Lang {
    /// The language of `language_id` (German for `de-*`, else English).
    pub fn of(conn: &Connection, language_id: &str) -> rusqlite::Result<Lang> {
        let code: Option<String> = conn
            .query_row(
                "SELECT code FROM language WHERE id = ?1",
                [language_id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(if code.is_some_and(|c| c.starts_with("de")) {
            Lang::De
        } else {
            Lang::En
        })
    }

    fn pick(self, en: &'static str, de: &'static str) -> &'static str {
        match self {
            Lang::En => en,
            Lang::De => de,
        }
    }
}

/// A mail whose HTML body is the text's paragraphs, with `link` as a link.
fn compose(to: &str, subject: String, paragraphs: &[String], link: Option<&str>) -> Mail {
    let mut text = paragraphs.join("\n\n");
    let mut html: String = paragraphs
        .iter()
        .map(|p| format!("<p>{}</p>", escape_html(p).replace('\n', "<br>")))
        .collect();
    if let Some(link) = link {
        text.push_str(&format!("\n\n{link}\n"));
        let link = escape_html(link);
        html.push_str(&format!("<p><a href=\"{link}\">{link}</a></p>"));
    }
    Mail {
        to: to.to_owned(),
        subject,
        text,
        html: format!("<!DOCTYPE html><html><body>{html}</body></html>"),
        reply_to: None,
        attachments: Vec::new(),
    }
}

/// Password recovery: the link to set a new password.
pub fn password_recovery(lang: Lang, to: &str, name: &str, link: &str) -> Mail {
    let greeting = format!("{} {name},", lang.pick("Hello", "Hallo"));
    let body = lang.pick(
        "someone asked to reset the password of your account. Follow this link within two hours to choose a new one. If it was not you, ignore this mail; your password stays as it is.",
        "für Ihr Konto wurde das Zurücksetzen des Passworts angefordert. Über diesen Link können Sie innerhalb von zwei Stunden ein neues wählen. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.",
    );
    let subject = lang
        .pick("Reset your password", "Passwort zurücksetzen")
        .to_owned();
    compose(to, subject, &[greeting, body.to_owned()], Some(link))
}

/// Newsletter double opt-in: the link that confirms the subscription.
pub fn newsletter_confirmation(lang: Lang, to: &str, link: &str) -> Mail {
    let body = lang.pick(
        "Thank you for subscribing to our newsletter. Please confirm your subscription with this link:",
        "Danke für Ihre Anmeldung zu unserem Newsletter. Bitte bestätigen Sie die Anmeldung über diesen Link:",
    );
    let subject = lang
        .pick(
            "Please confirm your newsletter subscription",
            "Bitte bestätigen Sie Ihre Newsletter-Anmeldung",
        )
        .to_owned();
    compose(to, subject, &[body.to_owned()], Some(link))
}

/// Newsletter: the subscription is active.
pub fn newsletter_welcome(lang: Lang, to: &str) -> Mail {
    let body = lang.pick(
        "Your newsletter subscription is active. You can unsubscribe at any time.",
        "Ihre Newsletter-Anmeldung ist aktiv. Sie können sich jederzeit wieder abmelden.",
    );
    let subject = lang
        .pick(
            "Welcome to our newsletter",
            "Willkommen bei unserem Newsletter",
        )
        .to_owned();
    compose(to, subject, &[body.to_owned()], None)
}

/// A contact request as the shop owner receives it.
pub struct ContactRequest<'a> {
    pub salutation: Option<&'a str>,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub subject: &'a str,
    pub comment: &'a str,
}

/// The contact form's mail to the shop owner; answers go to the sender.
pub fn contact_request(lang: Lang, to: &str, request: &ContactRequest) -> Mail {
    let name = [request.salutation, request.first_name, request.last_name]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let from = format!("{}: {} <{}>", lang.pick("From", "Von"), name, request.email);
    let phone = format!(
        "{}: {}",
        lang.pick("Phone", "Telefon"),
        request.phone.unwrap_or("-")
    );
    let subject = format!(
        "{}: {}",
        lang.pick("Contact form", "Kontaktformular"),
        request.subject
    );
    let mut mail = compose(
        to,
        subject,
        &[from, phone, request.comment.to_owned()],
        None,
    );
    mail.reply_to = Some(request.email.to_owned());
    mail
}

/// The links of an appointment invitation.
pub struct InvitationLinks {
    pub invitation: String,
    pub accept: String,
    pub maybe: String,
    pub decline: String,
}

/// An invitation to a live appointment: when, the answers, the way in; the calendar
/// entry travels as an attachment.
pub fn appointment_invitation(
    lang: Lang,
    to: &str,
    appointment: &str,
    when: &str,
    links: &InvitationLinks,
) -> Mail {
    let subject = format!("{}: {appointment}", lang.pick("Invitation", "Einladung"));
    let intro = match lang {
        Lang::En => {
            format!("you are invited to our live presentation \"{appointment}\" on {when}.")
        }
        Lang::De => {
            format!("Sie sind zu unserer Live-Präsentation „{appointment}“ am {when} eingeladen.")
        }
    };
    let greeting = lang.pick("Hello,", "Hallo,").to_owned();
    let answer = lang.pick(
        "Will you come? Answer with one of these links:",
        "Kommen Sie? Antworten Sie über einen dieser Links:",
    );
    let answers = [
        (lang.pick("Accept", "Zusagen"), &links.accept),
        (lang.pick("Maybe", "Vielleicht"), &links.maybe),
        (lang.pick("Decline", "Absagen"), &links.decline),
    ];
    let calendar = lang.pick(
        "The attached calendar file (.ics) puts the date into your calendar. The presentation opens here:",
        "Mit der angehängten Kalenderdatei (.ics) tragen Sie den Termin in Ihren Kalender ein. Die Präsentation öffnet sich hier:",
    );
    let mut mail = compose(to, subject, &[greeting, intro, answer.to_owned()], None);
    let answer_text: Vec<String> = answers
        .iter()
        .map(|(label, link)| format!("{label}: {link}"))
        .collect();
    let answer_html: Vec<String> = answers
        .iter()
        .map(|(label, link)| {
            format!(
                "<a href=\"{}\">{}</a>",
                escape_html(link),
                escape_html(label)
            )
        })
        .collect();
    mail.text.push_str(&format!(
        "\n\n{}\n\n{calendar}\n{}\n",
        answer_text.join("\n"),
        links.invitation
    ));
    let link = escape_html(&links.invitation);
    mail.html = mail.html.replace(
        "</body>",
        &format!(
            "<p>{}</p><p>{}<br><a href=\"{link}\">{link}</a></p></body>",
            answer_html.join(" · "),
            escape_html(calendar)
        ),
    );
    mail
}
