//! One run of this process ([`run`]): the guide first (shard 0), then the attendees'
//! joins, the hubs' memory once they settled, the slide changes (and the engagement
//! mode's poll), and the report of what every attendee received.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use protocol::action::Action;
use protocol::frame::ClientFrame;
use tokio::task::JoinHandle;

use crate::attendee::Received;
use crate::engagement::{self, EngagementReport, Plan, PollCount, POLL_REF};
use crate::guide::{stored_poll, Guide};
use crate::join::{join_attendees, Joined};
use crate::measure::{hub_metrics, own_cpu_seconds, settle, spin_workers};
use crate::report::{Continuity, Percentiles, Report, Times};
use crate::Options;

/// What the guide's part of a run measured (nothing in the other shards).
#[derive(Default)]
struct Presented {
    hub_bytes_per_connection: Option<f64>,
    /// The hubs' CPU time before the slide changes.
    hub_cpu_before: Option<f64>,
    /// The poll's counts as the guide received them when it closed, and as the hub stored
    /// it.
    poll_closed: Option<PollCount>,
    poll_stored: Option<PollCount>,
}

pub async fn run(options: &Options) -> anyhow::Result<Report> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let _spinners = options.busy_poll.then(spin_workers);
    let plan = Plan::of(options);
    if let Some(plan) = &plan {
        if options.resume {
            bail!("the engagement mode (--chat-per-sec, --reactions-per-sec, --poll-votes) does not go with --resume");
        }
        plan.check(options.clients)?;
    }
    let shared = Arc::new(engagement::Shared::default());
    let sent = Arc::new(engagement::Sent::default());
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(options.join_concurrency)
        .build()?;
    let (memory_before, guide) = arrive(&http, options).await?;
    let mut joined = join_attendees(&http, options, plan, &shared).await?;
    let cpu_before = own_cpu_seconds();
    // Starts with the poll's opening (which the attendees see), for the window.
    let driver = plan.map(|plan| {
        let (shared, sent, clients) = (shared.clone(), sent.clone(), options.clients);
        let (shard, outboxes) = (options.shard, std::mem::take(&mut joined.outboxes));
        tokio::spawn(async move {
            engagement::drive(plan, shard, clients, outboxes, &shared, &sent).await
        })
    });
    let presented = match &guide {
        Some(guide) => present(&http, options, plan, guide, &joined, memory_before).await?,
        None => Presented::default(),
    };
    let mut report = new_report(options, plan, &joined, &presented);
    let receivers = std::mem::take(&mut joined.receivers);
    let incomplete = collect(&mut report, receivers).await?;
    if let Some(driver) = driver {
        // Over by now (the poll closed after the window); without a poll it never began.
        driver.abort();
        let _ = driver.await;
    }
    if let Some(engagement) = &mut report.engagement {
        engagement.chats_sent = sent.chats.load(Ordering::Relaxed);
        engagement.reactions_sent = sent.reactions.load(Ordering::Relaxed);
        engagement.votes_sent = sent.votes.load(Ordering::Relaxed);
        engagement.votes_per_answer = sent.per_answer.lock().unwrap().clone();
        engagement.poll_closed = presented.poll_closed;
        engagement.poll_stored = presented.poll_stored;
        if let Some(Guide::Plain { seen, .. }) = &guide {
            let seen = seen.lock().unwrap();
            engagement.guide_chats = Some(seen.seen.chats);
            engagement.guide_chat_digest = Some(seen.seen.chat_digest);
            engagement.reaction_taps_counted = Some(seen.taps);
        }
    }
    report.generator_cpu_seconds = own_cpu_seconds() - cpu_before;
    if let Some(before) = presented.hub_cpu_before {
        report.hub_cpu_seconds = hub_metrics(&http, &options.hub_metrics)
            .await
            .map(|m| m.cpu_seconds - before);
    }
    report.errors = joined.errors + incomplete;
    Ok(report.finish())
}

/// The guide is there before the attendees, as in a real session: it receives every
/// join as a participant event. The other shards wait for it, so that the memory reading
/// before the joins is not taken in the middle of theirs. Returns the hubs' memory
/// before the joins and the guide (shard 0), or neither.
async fn arrive(
    http: &reqwest::Client,
    options: &Options,
) -> anyhow::Result<(Option<u64>, Option<Guide>)> {
    if options.shard.is_guide() {
        let memory_before = hub_metrics(http, &options.hub_metrics)
            .await
            .map(|m| m.memory);
        return Ok((memory_before, Some(Guide::join(http, options).await?)));
    }
    while hub_metrics(http, &options.hub_metrics)
        .await
        .is_some_and(|m| m.connections == 0)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok((None, None))
}

/// The guide's part once the joins are in: waits until the hubs hold every shard's
/// attendees, reads their memory after `--hold-secs`, then switches the slides; in the
/// engagement mode with the poll opened at the first slide change and closed after the
/// window.
async fn present(
    http: &reqwest::Client,
    options: &Options,
    plan: Option<Plan>,
    guide: &Guide,
    joined: &Joined,
    memory_before: Option<u64>,
) -> anyhow::Result<Presented> {
    let mut presented = Presented::default();
    let clients = options.clients as u64;
    let joined = clients - joined.errors.min(clients);
    // Every shard's attendees and the guide.
    settle(http, &options.hub_metrics, joined + 1).await;
    tokio::time::sleep(Duration::from_secs(options.hold_secs)).await;
    let before_slides = hub_metrics(http, &options.hub_metrics).await;
    presented.hub_bytes_per_connection = match (memory_before, before_slides) {
        (Some(before), Some(after)) if joined > 0 => {
            Some(after.memory.saturating_sub(before) as f64 / joined as f64)
        }
        _ => None,
    };
    presented.hub_cpu_before = before_slides.map(|m| m.cpu_seconds);
    let poll = match plan {
        Some(_) => Some(guide.create_poll().await?),
        None => None,
    };
    // scripts/chaos.sh starts its chaos on this line.
    eprintln!("loadtest: the slide changes start");
    let (Some(plan), Some(poll)) = (plan, &poll) else {
        guide.present(options).await?;
        return Ok(presented);
    };
    // The poll opens with the first slide change; the attendees' chats, reactions and
    // votes follow it for the window, while the slides change.
    let action = Action::OpenPoll {
        poll_id: poll.poll_id.clone(),
    };
    guide
        .send(&ClientFrame::Action {
            r#ref: Some(POLL_REF),
            action,
        })
        .await?;
    let opened = Instant::now();
    guide.present(options).await?;
    tokio::time::sleep_until((opened + plan.window + engagement::CLOSE_GRACE).into()).await;
    presented.poll_closed = Some(guide.close_poll(poll).await?);
    presented.poll_stored = stored_poll(http, options, guide, &poll.poll_id).await;
    Ok(presented)
}

/// The report before the attendees' measurements are added.
fn new_report(
    options: &Options,
    plan: Option<Plan>,
    joined: &Joined,
    presented: &Presented,
) -> Report {
    Report {
        clients: joined.attendees,
        shards: 1,
        slides: options.slides,
        first_slides: options.first_slides,
        joins_per_second: 0.0,
        join_seconds: 0.0,
        deliveries: 0,
        expected_deliveries: joined.attendees as u64 * options.slides as u64,
        deliveries_per_second: 0.0,
        latency: Percentiles::default(),
        latency_after_joins: Percentiles::default(),
        latency_steady: Percentiles::default(),
        errors: 0,
        hub_bytes_per_connection: presented.hub_bytes_per_connection,
        hub_cpu_seconds: None,
        generator_cpu_seconds: 0.0,
        times: Times {
            joins_started_us: joined.started_us,
            joins_ended_us: joined.ended_us,
            first_sent_us: 0,
            last_received_us: 0,
        },
        after_joins_us: Vec::new(),
        steady_us: Vec::new(),
        continuity: Continuity::default(),
        engagement: plan.map(|plan| EngagementReport {
            window_secs: plan.window.as_secs_f64(),
            ..EngagementReport::default()
        }),
    }
}

/// Adds what every attendee received to `report`; returns how many did not end on the
/// last slide.
async fn collect(report: &mut Report, receivers: Vec<JoinHandle<Received>>) -> anyhow::Result<u64> {
    let mut incomplete = 0;
    let mut first_sent_us = u64::MAX;
    for receiver in receivers {
        let got = receiver.await?;
        if !got.complete {
            incomplete += 1;
        }
        first_sent_us = first_sent_us.min(got.first_sent_us);
        report.times.last_received_us = report.times.last_received_us.max(got.last_received_us);
        report.continuity.add(&got.continuity);
        report.after_joins_us.extend(got.after_joins_us);
        report.steady_us.extend(got.steady_us);
        if let Some(engagement) = &mut report.engagement {
            engagement.add_attendee(&got.seen);
        }
    }
    report.times.first_sent_us = if first_sent_us == u64::MAX {
        0
    } else {
        first_sent_us
    };
    Ok(incomplete)
}
