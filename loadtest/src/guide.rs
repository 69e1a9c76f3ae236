//! The simulated guide: joins over REST, then switches slides at the set rate (each with
//! its send time in its section id), highlights products, and in the engagement mode
//! creates, opens and closes the run's poll. A plain guide's reader task answers pings
//! and notes what the engagement mode checks ([`GuideSeen`]); with `--resume` the guide
//! is a [`SteadyGuide`] that retries each slide change until it is acknowledged.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use protocol::action::Action;
use protocol::frame::{ClientFrame, ServerFrame};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::engagement::{self, PollCount, SeenPoll, POLL_REF};
use crate::join::post;
use crate::peek::{chat_texts, decode, peek, section_id, Kind, Peek};
use crate::report::unix_us;
use crate::socket::{connect, pong, Socket, REJOIN_TIMEOUT};
use crate::Options;

/// The guide of a `--resume` run: sends each slide change until the hub acknowledges it,
/// reconnecting (to whichever replica the load balancer picks) when the socket closes.
pub(crate) struct SteadyGuide {
    url: String,
    token: String,
    socket: Option<Socket>,
}

/// How long the guide waits for an acknowledgement before it asks again.
const ACK_TIMEOUT: Duration = Duration::from_secs(5);

impl SteadyGuide {
    async fn switch(&mut self, alias: u32) -> anyhow::Result<()> {
        let started = Instant::now();
        while started.elapsed() < REJOIN_TIMEOUT {
            if self.socket.is_none() {
                match connect(
                    &self.url,
                    &self.token,
                    IpAddr::V4(Ipv4Addr::LOCALHOST),
                    None,
                )
                .await
                {
                    Ok((socket, _)) => self.socket = Some(socket),
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                }
            }
            let Some(socket) = self.socket.as_mut() else {
                continue;
            };
            let action = Action::SwitchSlide {
                page_id: "0".repeat(32),
                section_id: section_id(alias, unix_us()),
                slide_alias: alias,
            };
            let frame = serde_json::to_string(&ClientFrame::Action {
                r#ref: Some(alias),
                action,
            })?;
            if socket.send(Message::text(frame)).await.is_err() {
                self.socket = None;
                continue;
            }
            loop {
                let message = match tokio::time::timeout(ACK_TIMEOUT, socket.next()).await {
                    Ok(Some(Ok(message))) => message,
                    _ => {
                        self.socket = None;
                        break;
                    }
                };
                if let Peek::Ping(nonce) = peek(&message) {
                    let _ = socket.send(pong(nonce)).await;
                    continue;
                }
                match decode(&message) {
                    Some(ServerFrame::Ack { r#ref, .. }) if r#ref == alias => return Ok(()),
                    Some(ServerFrame::Error {
                        r#ref: Some(r#ref), ..
                    }) if r#ref == alias => {
                        // Not stored (Redis away, say): nothing happened; ask again.
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        break;
                    }
                    _ => {}
                }
            }
        }
        bail!("slide change {alias} was not acknowledged within {REJOIN_TIMEOUT:?}")
    }
}

/// The guide's socket: the slide changes go out here, and a task reads what comes in
/// (the joins' participant events) and answers pings.
/// With `--resume`, the guide is a [`SteadyGuide`].
pub(crate) enum Guide {
    Plain {
        tx: Arc<tokio::sync::Mutex<SplitSink<Socket, Message>>>,
        seen: Arc<std::sync::Mutex<GuideSeen>>,
        appointment: String,
    },
    Steady(Box<tokio::sync::Mutex<SteadyGuide>>),
}

/// What the plain guide's reader saw of the engagement.
#[derive(Default)]
pub(crate) struct GuideSeen {
    /// The chats (up to the poll's closing).
    pub seen: engagement::Seen,
    /// The taps of the reaction sums (up to the poll's closing).
    pub taps: u64,
    poll: Option<SeenPoll>,
    closed: Option<PollCount>,
    /// Why the hub refused a poll action.
    refusal: Option<String>,
}

impl GuideSeen {
    /// The guide's reader: chats, reaction sums, and the poll's creation and closing.
    fn read(&mut self, message: &Message, peeked: &Peek) {
        match peeked {
            Peek::Event {
                kind: Kind::Chat, ..
            } if self.closed.is_none() => {
                if let Message::Text(text) = message {
                    chat_texts(text.as_str()).for_each(|text| self.seen.chat(text));
                }
            }
            Peek::Event {
                kind: Kind::PollCreated | Kind::PollClosed,
                ..
            } => match decode(message) {
                Some(ServerFrame::Event {
                    event: protocol::frame::Event::PollCreated { poll },
                    ..
                }) if self.poll.is_none() => {
                    let answer_ids = poll.answers.into_iter().map(|a| a.answer_id).collect();
                    self.poll = Some(SeenPoll {
                        poll_id: poll.poll_id,
                        answer_ids,
                    });
                }
                Some(ServerFrame::Event {
                    event:
                        protocol::frame::Event::PollClosed {
                            poll_id,
                            counts,
                            voters,
                        },
                    ..
                }) if self.poll.as_ref().is_some_and(|p| p.poll_id == poll_id) => {
                    self.closed = Some(PollCount { counts, voters });
                }
                _ => {}
            },
            Peek::Reactions if self.closed.is_none() => {
                if let Some(ServerFrame::Volatile {
                    event: protocol::frame::VolatileEvent::Reactions { counts },
                }) = decode(message)
                {
                    self.taps += counts.to_array().iter().map(|n| u64::from(*n)).sum::<u64>();
                    self.seen.reaction_frame(Instant::now());
                }
            }
            Peek::Refused(Some(POLL_REF)) => {
                if let Some(ServerFrame::Error { code, message, .. }) = decode(message) {
                    self.refusal = Some(format!("{code:?}: {message}"));
                }
            }
            _ => {}
        }
    }
}

/// The plain guide's reader: answers pings and hands the engagement frames to `seen`.
async fn read_plain(
    mut rx: SplitStream<Socket>,
    tx: Arc<tokio::sync::Mutex<SplitSink<Socket, Message>>>,
    seen: Arc<std::sync::Mutex<GuideSeen>>,
) {
    while let Some(Ok(message)) = rx.next().await {
        match peek(&message) {
            Peek::Ping(nonce) => {
                let _ = tx.lock().await.send(pong(nonce)).await;
            }
            Peek::Other
            | Peek::Slide { .. }
            | Peek::Ack(_)
            | Peek::Event {
                kind: Kind::Other | Kind::PollOpened,
                ..
            } => {}
            peeked => seen.lock().unwrap().read(&message, &peeked),
        }
    }
}

/// The guide's REST join: the appointment's id and the join's answer (`hubUrl`,
/// `hubToken`).
async fn join_as_guide(
    http: &reqwest::Client,
    options: &Options,
) -> anyhow::Result<(String, Value)> {
    let base = options.base_url.trim_end_matches('/');
    let body = json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"});
    let token = post(http, format!("{base}/api/oauth/token"), &[], body).await?;
    let bearer = format!(
        "Bearer {}",
        token["access_token"].as_str().context("access_token")?
    );
    let filter = json!({"filter": [{"type": "equals", "field": "presentationPath", "value": options.presentation_path}]});
    let found = post(
        http,
        format!("{base}/api/search/dsr-appointment"),
        &[("authorization", &bearer)],
        filter,
    )
    .await?;
    let appointment = found["data"][0]["id"]
        .as_str()
        .context("no such appointment")?
        .to_owned();
    let url = format!("{base}/api/_action/dsr/appointment/{appointment}/join-as-guide");
    let join = post(http, url, &[("authorization", &bearer)], json!({})).await?;
    Ok((appointment, join))
}

/// How long the guide waits for its poll to be created, and closed.
const POLL_TIMEOUT: Duration = Duration::from_secs(60);

impl Guide {
    /// Joins as the guide over REST (the admin's login, the appointment found by its
    /// presentation path) and opens the guide's socket.
    pub(crate) async fn join(http: &reqwest::Client, options: &Options) -> anyhow::Result<Guide> {
        let (appointment, join) = join_as_guide(http, options).await?;
        let hub = match options.hub_url.first() {
            Some(url) => url.clone(),
            None => join["hubUrl"].as_str().context("hubUrl")?.to_owned(),
        };
        let token = join["hubToken"].as_str().context("hubToken")?.to_owned();
        if options.resume {
            // Connected now: the attendees' joins are counted with the guide's socket.
            let (socket, _) = connect(&hub, &token, IpAddr::V4(Ipv4Addr::LOCALHOST), None).await?;
            let steady = SteadyGuide {
                url: hub,
                token,
                socket: Some(socket),
            };
            return Ok(Guide::Steady(Box::new(tokio::sync::Mutex::new(steady))));
        }
        let (socket, _) = connect(&hub, &token, IpAddr::V4(Ipv4Addr::LOCALHOST), None).await?;
        let (tx, rx) = socket.split();
        let tx = Arc::new(tokio::sync::Mutex::new(tx));
        let seen = Arc::new(std::sync::Mutex::new(GuideSeen::default()));
        tokio::spawn(read_plain(rx, tx.clone(), seen.clone()));
        Ok(Guide::Plain {
            tx,
            seen,
            appointment,
        })
    }

    pub(crate) async fn send(&self, frame: &ClientFrame) -> anyhow::Result<()> {
        if let Guide::Plain { tx, .. } = self {
            tx.lock()
                .await
                .send(Message::text(serde_json::to_string(frame)?))
                .await?;
        }
        Ok(())
    }

    /// Waits until `found` finds something in what the reader saw, or the hub refused a
    /// poll action.
    async fn wait_for<T>(
        &self,
        what: &str,
        found: impl Fn(&GuideSeen) -> Option<T>,
    ) -> anyhow::Result<T> {
        let Guide::Plain { seen, .. } = self else {
            bail!("the engagement mode needs the plain guide (not --resume)")
        };
        let started = Instant::now();
        loop {
            {
                let seen = seen.lock().unwrap();
                if let Some(refusal) = &seen.refusal {
                    bail!("the hub refused the guide's poll action: {refusal}");
                }
                if let Some(value) = found(&seen) {
                    return Ok(value);
                }
            }
            if started.elapsed() > POLL_TIMEOUT {
                bail!("{what} did not arrive within {POLL_TIMEOUT:?}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Creates the run's poll (a draft); returns it as the hub made it.
    pub(crate) async fn create_poll(&self) -> anyhow::Result<SeenPoll> {
        let poll = protocol::engagement::polls::NewPoll {
            question: "Which one would you buy?".into(),
            answers: ["Red", "Green", "Blue", "Black"].map(String::from).to_vec(),
            multiple: false,
            slide: None,
        };
        self.send(&ClientFrame::Action {
            r#ref: Some(POLL_REF),
            action: Action::CreatePoll { poll },
        })
        .await?;
        self.wait_for("the pollCreated of the guide's poll", |seen| {
            seen.poll.clone()
        })
        .await
    }

    /// Closes the poll; returns its final counts as the guide received them.
    pub(crate) async fn close_poll(&self, poll: &SeenPoll) -> anyhow::Result<PollCount> {
        let action = Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        };
        self.send(&ClientFrame::Action {
            r#ref: Some(POLL_REF),
            action,
        })
        .await?;
        self.wait_for("the pollClosed of the guide's poll", |seen| {
            seen.closed.clone()
        })
        .await
    }

    /// Switches slides 1 … `slides` at the set rate, each with its send time in its
    /// section id.
    pub(crate) async fn present(&self, options: &Options) -> anyhow::Result<()> {
        for alias in 1..=options.slides {
            if let Guide::Steady(guide) = self {
                guide.lock().await.switch(alias).await?;
                tokio::time::sleep(Duration::from_millis(options.interval_ms)).await;
                continue;
            }
            let section_id = section_id(alias, unix_us());
            let action = Action::SwitchSlide {
                page_id: "0".repeat(32),
                section_id,
                slide_alias: alias,
            };
            self.send(&ClientFrame::Action {
                r#ref: Some(alias),
                action,
            })
            .await?;
            if options.highlight_every > 0 && alias % options.highlight_every == 0 {
                let interaction = protocol::action::Interaction::GuideHovered(
                    protocol::action::GuideHoveredPayload {
                        hovered_element_id: Some(format!("{alias:032x}")),
                    },
                );
                self.send(&ClientFrame::Interaction {
                    r#ref: None,
                    interaction,
                })
                .await?;
            }
            tokio::time::sleep(Duration::from_millis(options.interval_ms)).await;
        }
        Ok(())
    }
}

/// The poll as the hub stored it: `GET /internal/appointments/{id}/state` of the first
/// hub (next to its `--hub-metrics`), with `--hub-secret`. `None` when either is missing
/// or the read fails (said on stderr).
pub(crate) async fn stored_poll(
    http: &reqwest::Client,
    options: &Options,
    guide: &Guide,
    poll_id: &str,
) -> Option<PollCount> {
    let (Some(secret), Some(metrics), Guide::Plain { appointment, .. }) =
        (&options.hub_secret, options.hub_metrics.first(), guide)
    else {
        return None;
    };
    let url = format!(
        "{}/internal/appointments/{appointment}/state",
        metrics.trim_end_matches("/metrics")
    );
    let read = async {
        let response = http
            .get(&url)
            .bearer_auth(secret)
            .send()
            .await?
            .error_for_status()?;
        let state: Value = response.json().await?;
        let polls = state["stateForAll"]["polls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let poll = polls
            .into_iter()
            .find(|p| p["pollId"] == poll_id)
            .context("the stored state has no such poll")?;
        anyhow::Ok(serde_json::from_value::<PollCount>(poll)?)
    };
    match read.await {
        Ok(count) => Some(count),
        Err(error) => {
            eprintln!("could not read the stored poll from {url}: {error:#}");
            None
        }
    }
}
